"""Asset groups by domain."""
