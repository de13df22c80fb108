"""Vector Graph RAG explorer: the entry point; the router lives in ui/router.py."""

from ui.router import navigation

navigation().run()
