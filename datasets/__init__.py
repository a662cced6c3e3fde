"""The synthetic photo generator and dataset building (YOLO format).

- ``classes``: the detector's 38 classes (the one table everything reads).
- ``hands``: random winning hands as laid on the table.
- ``art``: tile-face styles (an art folder's PNG faces, and faces drawn here).
- ``scene``, ``camera``, ``render``, ``surfaces``, ``effects``: the 3D table, the phone's
  point of view, drawing with an id buffer for the labels, and camera realism.
- ``synth``: one sample per (seed, index), and ``generate`` for whole datasets.
- ``yolo``, ``build``: label and ``data.yaml`` I/O; mixing synthetic and real sets.
- ``contact``: contact sheets with the labels drawn.

Usage and the ground-truth JSON spec: ``datasets/README.md``.
"""
