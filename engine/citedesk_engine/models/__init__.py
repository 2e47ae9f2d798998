"""Model slots: where each model comes from (registry) and how it is run."""
