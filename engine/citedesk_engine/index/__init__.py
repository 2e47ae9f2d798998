"""Persistent stores of a library: manifest, blobs, vectors, lexical index."""
