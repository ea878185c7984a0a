"""``rules serve``: play any variant in the browser, and the JSON API the page uses.

A front end beside :mod:`interpreter.cli` (the top layer of the pipeline).
The pieces, each a module:

- :mod:`.app`: the Starlette application, its routes and its error answers;
- :mod:`.creating`: a game from a request (bundled variant or rules text,
  mode, options, FEN, record, moves, seats);
- :mod:`.sessions`: one game in progress, its computer worker thread;
- :mod:`.clocks`: the game clocks of a game, per seat, kept by the server;
- :mod:`.seats`: who plays each seat (a person or an agent);
- :mod:`.access`: the secret token of each seat, and what each request needs;
- :mod:`.store`: the games kept in memory, with caps on number and age, and made again
  from the database when asked for;
- :mod:`.database`: the games kept in SQLite (``rules serve --db``), every ply committed
  before it is acknowledged;
- :mod:`.views`: the JSON of a game, a position and its legal moves;
- :mod:`.analysis`: the computer's evaluation and best line of a position of a game, and who
  may ask for it;
- :mod:`.live`: a game followed live (the states as they change), and its WebSocket, which
  takes moves too;
- :mod:`.command`: the ``rules serve`` command;
- ``static/``: the page (plain HTML, CSS and JavaScript, no build step,
  nothing fetched from elsewhere).

Starlette and uvicorn are the optional extra ``rules-dsl[serve]``; nothing
here is imported by ``rules --help``. Use from Python::

    from interpreter.server.app import create_app
    app = create_app()          # an ASGI application: uvicorn, or Starlette's TestClient
"""
