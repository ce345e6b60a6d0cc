// The HTTP/1.1 listener and the webhook; see DESIGN.md.
