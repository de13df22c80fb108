"""How an LLM call failed, and what the user should do about it: the error type, which failures waiting may cure
(rate limits, timeouts, an unreachable endpoint), and one readable message per failure."""

from __future__ import annotations


class LLMError(RuntimeError):
    """A call that gave no usable reply: the message says what to fix; `attempts` what was tried and how long."""

    def __init__(
        self,
        message: str,
        attempts: tuple[str, ...] = (),
        elapsed_ms: float = 0.0,
        unreachable: bool = False,
        partial: str = "",
    ) -> None:
        super().__init__(message)
        self.attempts = attempts
        self.elapsed_ms = elapsed_ms
        self.unreachable = unreachable  # the endpoint could not be reached: later calls of a query are skipped
        self.partial = partial  # text a stream delivered before it broke


class StreamBroke(Exception):
    """A stream failed after delivering text: never retried (the pieces are already on screen)."""

    def __init__(self, partial: str, cause: BaseException) -> None:
        super().__init__(f"the stream broke after {len(partial)} characters: {cause}")
        self.partial = partial


def transient(e: BaseException | None) -> str | None:
    """What kind of failure waiting may cure: "timeout", "rate limit", "unreachable"; None for the rest."""
    import openai

    if isinstance(e, openai.APITimeoutError):  # a subclass of APIConnectionError: test it first
        return "timeout"
    if isinstance(e, openai.APIConnectionError):
        return "unreachable"
    if isinstance(e, openai.RateLimitError):
        return "rate limit"
    return None


def retry_after(e: BaseException | None) -> float | None:
    response = getattr(e, "response", None)
    value = response.headers.get("retry-after") if response is not None else None
    try:
        return float(value) if value else None
    except ValueError:
        return None


def describe(e: BaseException) -> str:
    cause = e.__cause__ or e.__context__
    detail = f" ({type(cause).__name__}: {cause})" if cause is not None and str(cause) else ""
    status = getattr(e, "status_code", None)
    return f"{type(e).__name__}{f' {status}' if status else ''}{detail}"[:300]


def fix_message(e: BaseException, model: str, base_url: str, attempts: int) -> tuple[str, bool]:
    """What the user should do about a final failure, and whether the endpoint was unreachable."""
    import openai

    where = base_url or "api.openai.com"
    kind = transient(e)
    if kind == "unreachable":
        return f"Cannot reach the LLM endpoint {where} ({describe(e)}): is the server running?", True
    if kind == "timeout":
        return (
            f"The LLM endpoint {where} timed out {attempts} time(s): a faster model or a longer timeout helps.",
            False,
        )
    if kind == "rate limit":
        return f"The LLM endpoint {where} kept rate-limiting ({attempts} attempts): try again later.", False
    if isinstance(e, openai.AuthenticationError):
        return (
            "The LLM endpoint rejected the API key (401): check the key on the Settings page or OPENAI_API_KEY.",
            False,
        )
    if isinstance(e, openai.NotFoundError):
        return f"Model {model!r} or the endpoint was not found (404): check the model name and base URL.", False
    if isinstance(e, openai.BadRequestError):
        return f"The LLM endpoint refused the request (400): {e}", False
    if isinstance(e, openai.APIStatusError):
        return f"The LLM endpoint failed ({e.status_code}): {e}", False
    if isinstance(e, StreamBroke):
        return str(e), False
    return f"The LLM call failed: {describe(e)}", False
