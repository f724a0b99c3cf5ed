"""The application layer under every front end (ARCHITECTURE.md decision 15): matches as stored
games, the lobby, picker sessions, options, pictures and DMs — no Discord, no console."""
