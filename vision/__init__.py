"""Image in, structured hand out: the tile detector (onnxruntime) and the grouping step."""
