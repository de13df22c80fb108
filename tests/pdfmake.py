"""Tiny, valid one-page text PDFs built by hand (no PDF writer dependency)."""

from __future__ import annotations


def _escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def text_pdf(lines: list[str]) -> bytes:
    """One page of lines in 12 pt Helvetica, 14 pt apart."""
    return _page("BT /F1 12 Tf 50 750 Td 14 TL " + " ".join(f"({_escape(s)}) '" for s in lines) + " ET")


def placed_pdf(lines: list[tuple[float, float, str]], size: float = 12) -> bytes:
    """One page of lines in Helvetica, each at its own (x, baseline y): gaps and indents as a layout sets them."""
    return _page(" ".join(f"BT /F1 {size} Tf {x} {y} Td ({_escape(s)}) Tj ET" for x, y, s in lines))


def _page(body: str) -> bytes:
    objs = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        "/Resources << /Font << /F1 5 0 R >> >> >>",
        f"<< /Length {len(body)} >>\nstream\n{body}\nendstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = b"%PDF-1.4\n"
    offsets = []
    for i, o in enumerate(objs, 1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n{o}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{off:010d} 00000 n \n" for off in offsets).encode()
    out += f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return out
