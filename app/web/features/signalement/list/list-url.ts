// The list's address-bar filters live in shared/ since saved filters (docs/decisions/0046-saved-filters.md):
// the server validates and normalises a filter's query string with the same code the list reads it with.
export * from '#shared/list-url';
