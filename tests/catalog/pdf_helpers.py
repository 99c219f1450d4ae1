"""Small PDFs written byte by byte for the document tests: no PDF library needed,
and every byte is known (blank pages of any size, a text layer)."""

from __future__ import annotations


def pdf_from_objects(objects: list[bytes]) -> bytes:
    """A PDF file of ``objects`` (object 1 is the catalogue), with its cross-reference table."""
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def blank_pdf(pages: int, width_pt: int = 595, height_pt: int = 842) -> bytes:
    """A PDF of ``pages`` blank pages (A4 unless told), with no text layer."""
    kids = " ".join(f"{3 + i} 0 R" for i in range(pages))
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", f"<< /Type /Pages /Kids [{kids}] /Count {pages} >>".encode()]
    objects += [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] >>" % (width_pt, height_pt)] * pages
    return pdf_from_objects(objects)
