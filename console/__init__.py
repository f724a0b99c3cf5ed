"""The console front end: ``carcabot local``, a match played in the terminal through the same
application services as Discord."""
