"""The slow path: the entity graph, its communities, and the retrievers that walk them."""
