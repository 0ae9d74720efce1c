"""`sgsdsl studio`: a playtest studio in the browser. The table as your seat sees it, your decisions as
buttons, the narration `play` prints, the rules re-checked on every save, replays of logs, and agents to watch.

session: games in their own threads · table: what the page draws · workspace: the rules, watched and checked ·
replays: logs stepped through · app: the Starlette routes and their guards · serve: uvicorn on loopback.
"""
