"""Pictures of programs and their traffic (spatial-viz), the top layer."""
