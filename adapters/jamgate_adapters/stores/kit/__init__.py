"""Helpers the bundled stores share, one module per job. Other adapters may import them.

- `paging`: list cursors, status filters, the listing order, pages, id prefixes, and the
  precondition check.
- `lexical`: what a keyword index holds for a text and what a query looks for (index terms,
  CJK grams, BM25, typo matching), all over `jamgate_core.text` (the stages' own folding).
- `ranking`: vectors, fusion, query hints, diversity, `rank_records` (docs/recall.md).
- `dates`: the period a query names ("last week", "9 October 2022").
- `columns`: a record as the flat columns of the SQL stores, and back.
- `invariants`: one active record per (scope, text key) and per (scope, subject).
- `plans`: `jamgate_core.writes.apply_plan` over a batch, for stores that persist records
  themselves.
- `locking`, `files`: the cross-process file lock (and the debris a killed holder leaves),
  atomic, durable file replacement (and its orphaned temp files), what counts as read-only.
- `authstate`: the OAuth state (`jamgate_core.contracts.AuthState`) of the bundled stores.

Nothing is imported here: importing one module does not load the others (nor numpy).
"""
