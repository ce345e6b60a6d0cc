// The decision pipeline; see DESIGN.md.
