"""The synthetic photo generator and dataset building (YOLO format)."""
