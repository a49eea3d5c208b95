"""Every game is a record: a header and numbered events, kept in a store (SQLite by default).

- `events`: what a record is made of (plain data).
- `replay`: a record replayed through `rules` (states, narration, the decisions that stand).
- `store`: the interface of every store, its errors and the rows it lists; `sqlite`: the store
  in one SQLite file (and `SQLRecords`, the SQL both stores share), `postgres`: the store in
  PostgreSQL, `schema`: their migrations, `stores`: `open_records`, which picks one by URL.
- `recorder`: how a table's events reach the store; `importer`: old JSON saves made records;
  `reviews`: the coach's reviews of a record, recomputed (and summed for the statistics);
  `book`: all of it as the app uses it (the screens' one entry point); `files`: a record as a
  file of its own (export, and reading one from anywhere, checked); `version`: the app's
  version, for the header.

None of it imports Textual. The design is in docs/architecture.md ("Records").
"""
