"""The yardstick: a minimal Textual hello-world app (no CSS file, no screens, one widget).

`bench/run.py` starts it under the same pty as Cubilete and compares the two. Quit: ctrl+q.
"""

from textual.app import App, ComposeResult
from textual.widgets import Static


class HelloApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("Hello, world!")


if __name__ == "__main__":
    HelloApp().run()
