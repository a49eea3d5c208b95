"""What Cubilete draws instead of Textual's own: the quiet screens and the six widgets that
replace Textual's, each for a reason that was measured (docs/performance.md, "What changed to
get here"; the commits named below). Each module's docstring tells the rest.

- `screen.PaintOnceScreen`, `screen.QuietScreen` — a screen reaches the terminal once,
  settled, and a focus move or a click does not repaint all of it. At 80×24 Textual wrote 3.6
  full frames before the lobby settled, ≈ 4 for the Generala screen; a Tab in the lobby wrote
  7.7–10.3 KB (now 1.3–2.8 KB), holding a die by a click ≈ 19 KB (now ≤ 2 KB), a click that
  changes nothing 18.4 KB (now 0 B). A rule card shown again is not restyled (≈ 0.15 s).
- `title_bar.TitleBar` for `Header` — one widget instead of four (icon, title, clock space,
  header); with `KeyBar` and the lazily imported screens, CPU to the lobby's first paint went
  from 1.24× to 1.23× a minimal Textual app (dee231e). Setting a sub-title repaints only this
  line (≈ 0.2 KB instead of ≈ 6 KB).
- `key_bar.KeyBar` for `Footer` — one widget instead of one per key, which Footer composes
  again at every move of the focus (3f30f72); it also orders keys by the screen's rank and
  never cuts one mid-word.
- `button_row.ButtonRow` for `Button` — the lobby's four buttons as one widget: Textual's
  `Button` brought 7 KB of default CSS, half the CSS parsed at start; CPU to the first paint
  1.25× → 1.15× (4946000).
- `game_list.GameList` for `OptionList` — ≈ 10 ms less start-up for a list of five games
  (3b09d76).
- `setup_sheet.SetupSheet` for a form of labels, inputs, `Select`s and notes — one widget
  instead of ≈ 30 (94 with `Select`): CPU to the first paint 1.69× → 1.32× (8ba0a63); a key
  in the sheet writes 0.3–0.6 KB. Its rows, cursor, typing and checks are the Textual-free
  `setup_model.SetupModel`; the widget draws it and turns keys and clicks into its calls.
- `table_talk.TableTalk` for `RichLog` — `RichLog` imports `rich.pretty`, hence `attrs`:
  9 ms of CPU and 0.6 MiB when a game opens (1bb7bc8); and a write repainted the whole log
  (≈ 2.5 KB at 80×24), where this paints only the new line.

- `collector.IdleCollector` — the cyclic garbage collector at quiet moments, not inside a
  key's answer: a young collection in a key's paint (3–6 ms under load) every few keys and a
  full one (17–74 ms) now and then were the slowest keys of a game; a game's p99 under load
  went from 63–246 ms to 57–89 ms, alternated (015a396).

Together the lobby has 16 widgets and 6.8 KB of CSS at its first paint, from 63 widgets and
15.9 KB. This package imports nothing at import time: `setup_model` stays Textual-free.
"""
