"""Small PDFs the tests build themselves: labelled pages, outlines, image-only and stamped pages, encryption, unspaced
words."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw, ImageFont
from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, NameObject, NumberObject
from reportlab import rl_config
from reportlab.lib.pagesizes import letter
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfmetrics import getFont
from reportlab.pdfgen import canvas

rl_config.invariant = 1


def text_pdf(pages: list[str], *, roman_front: int = 0, outline: list[tuple[str, int, int]] | None = None) -> bytes:
    """One string per page (lines split on newline); the first `roman_front` pages get labels i, ii, ...
    outline entries are (title, level 0-based, page index 0-based)."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=letter)
    if roman_front:
        c.addPageLabel(0, "ROMAN_LOWER")
        c.addPageLabel(roman_front, "ARABIC", start=1)
    keys = {}
    for i, body in enumerate(pages):
        y = 720
        for line in body.split("\n"):
            c.drawString(72, y, line)
            y -= 16
        for n, (title, level, page) in enumerate(outline or []):
            if page == i:
                key = f"k{n}"
                c.bookmarkPage(key)
                keys[n] = (key, title, level)
        c.showPage()
    for n in sorted(keys):
        key, title, level = keys[n]
        c.addOutlineEntry(title, key, level=level)
    c.save()
    return buf.getvalue()


def image_of_text(lines: list[str], size: int = 48) -> Image.Image:
    img = Image.new("L", (1700, 2200), 255)
    draw = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=size)
    y = 200
    for line in lines:
        draw.text((150, y), line, fill=0, font=font)
        y += int(size * 1.8)
    return img


def pdf_with_image_page(text_before: str, image_lines: list[str], *more_images: list[str]) -> bytes:
    """Page 1 has a text layer; page 2 (and one more per `more_images`) is only a picture of text."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=letter)
    c.drawString(72, 720, text_before)
    c.showPage()
    for lines in (image_lines, *more_images):
        png = io.BytesIO()
        image_of_text(lines).save(png, format="PNG")
        png.seek(0)
        c.drawImage(ImageReader(png), 0, 0, width=letter[0], height=letter[1])
        c.showPage()
    c.save()
    return buf.getvalue()


def pdf_with_stamped_picture(picture: Image.Image, stamp: str) -> bytes:
    """One page: a picture covering it, under a one-line text layer, as a court's filing system stamps a scan."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=letter)
    png = io.BytesIO()
    picture.save(png, format="PNG")
    png.seek(0)
    c.drawImage(ImageReader(png), 0, 0, width=letter[0], height=letter[1])
    c.setFont("Helvetica", 8)
    c.drawString(72, 770, stamp)
    c.showPage()
    c.save()
    return buf.getvalue()


def photograph(seed: int = 7) -> Image.Image:
    """A picture holding no text: smooth blotches of grey, as a photograph's."""
    import numpy as np

    rng = np.random.default_rng(seed)
    coarse = rng.integers(0, 256, (22, 17), dtype=np.uint8)
    return Image.fromarray(coarse, "L").resize((1700, 2200), Image.Resampling.BICUBIC)


def typeset_pdf(lines: list[tuple[int, str]]) -> bytes:
    """One page of (point size, line) from the top down, in Helvetica, with no title in its metadata."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=letter)
    y = 760
    for size, line in lines:
        y -= size * 1.4  # each line below the last by its own size, so large type never overlaps the line above
        c.setFont("Helvetica", size)
        c.drawString(72, y, line)
    c.showPage()
    c.save()
    return buf.getvalue()


def encrypted(pdf: bytes, user_password: str) -> bytes:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    writer.encrypt(user_password=user_password, owner_password="owner-secret", algorithm="AES-256")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def zero_page_pdf() -> bytes:
    out = io.BytesIO()
    PdfWriter().write(out)
    return out.getvalue()


def kerned_words_pdf(lines: list[str], *, space_width: int = 900, gap: int = -317) -> bytes:
    """Lines whose words are set apart by TJ offsets, no space drawn, in a Helvetica whose declared space is wide: as
    the Auto Multiple Choice manual's LaTeX-made pages read to pypdf, which then runs the words together."""
    name = NameObject
    writer = PdfWriter()
    page = writer.add_blank_page(*letter)
    widths = [space_width] + getFont("Helvetica").widths[33:127]
    font = DictionaryObject({
        name("/Type"): name("/Font"), name("/Subtype"): name("/Type1"), name("/BaseFont"): name("/Helvetica"),
        name("/Encoding"): name("/WinAnsiEncoding"), name("/FirstChar"): NumberObject(32),
        name("/LastChar"): NumberObject(126), name("/Widths"): ArrayObject(NumberObject(w) for w in widths),
    })
    page[name("/Resources")] = DictionaryObject({name("/Font"): DictionaryObject({name("/F1"): font})})
    ops = ["BT /F1 10 Tf 72 720 Td 14 TL"]
    ops += ["[" + " ".join(f"({word}) {gap}" for word in line.split()) + "] TJ T*" for line in lines]
    stream = DecodedStreamObject()
    stream.set_data("\n".join([*ops, "ET"]).encode())
    page.replace_contents(stream)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
