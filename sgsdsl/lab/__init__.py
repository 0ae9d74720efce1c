"""The balance lab: seeded games played in parallel, one record per game, and statistics a designer can trust.

`records` plays one game into a plain record; `runner` spreads seeds over processes or a Ray cluster (results
never depend on how), in the chunks that `work` cuts and plays; `stats` turns records into win rates with Wilson
intervals; `compare` pairs two variants seed by seed; `export` and `report` write CSV/Parquet/JSON and a
self-contained HTML page.
"""
