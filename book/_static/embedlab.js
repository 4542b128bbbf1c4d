// Embedding Lab's page script (loaded on every page by tools/book_theme.py).
