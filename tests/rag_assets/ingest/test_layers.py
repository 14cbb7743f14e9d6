"""Text layers: glyph names and stamps over scans are told from text a page holds, and such pages are read by OCR."""

from rag_assets.ingest import extraction as ex
from rag_assets.ingest.layers import JUNK_SHARE, WORDY, image_cover, junk_share, ocr_reason, wordy_share
from tests.pdfs import image_of_text, pdf_with_image_page, pdf_with_stamped_picture, photograph

# pypdf's text of a real annual report's first page, whose font maps no glyph to Unicode ("DIRECTORS' REPORT").
GLYPH_NAMES = "/G44/G49/G52/G45/G43/G54/G4F/G52/G53/G27/G20/G52/G45/G50/G4F/G52/G54 /G26/G20/G4D/G41/G4E/G41/G47"
STAMP = "Case 2:18-cv-12857-DML-RSW ECF No. 1 filed 09/13/18 PageID.1 Page 1 of 1"
BODY = ["UNITED STATES DISTRICT COURT", "COMPLAINT FOR FORFEITURE", "The property is a 2016 Honda Civic"]


def test_glyph_names_make_a_layer_junk():
    assert junk_share(GLYPH_NAMES) > 0.9


def test_control_characters_make_a_layer_junk():
    assert junk_share("\x01\x02\x03\x04 \x05\x06\x07 \ufffd\ufffd") == 1.0


def test_paths_and_words_are_not_junk():
    assert junk_share("Fonts live in /etc/X11/fonts and /usr/share/fonts; see /dev/sda1 for the disk.") < 0.2
    assert junk_share("The Directors present their report.") == 0.0


def test_an_empty_page_with_a_picture_is_read_by_ocr_and_one_without_is_blank():
    assert ocr_reason("", True, 1.0) == "has no text layer"
    assert ocr_reason("  \n", False, 0.0) is None


def test_a_layer_of_glyph_names_is_read_by_ocr():
    assert ocr_reason(GLYPH_NAMES, False, 0.0) == "has a text layer of glyph names or control characters"


def test_a_stamp_over_a_page_sized_picture_is_read_by_ocr():
    assert ocr_reason(STAMP, True, 1.0) == "is a picture under a text layer of 12 words"


def test_text_over_a_background_picture_is_trusted():
    assert ocr_reason(" ".join(["word"] * 30), True, 1.0) is None


def test_a_caption_beside_a_small_picture_is_trusted():
    assert ocr_reason("Figure 2: the pump", True, 0.3) is None


def test_a_photograph_read_by_ocr_is_not_words_and_a_page_of_text_is():
    assert wordy_share("us y ’ + ; [itn ; J t i WO A ) HP} a 4 | } \\F i |") < WORDY
    assert wordy_share("UNITED STATES DISTRICT COURT, Case No. 2:18-cv-12857 (filed 09/13/18).") > 0.9


def test_image_cover_is_each_pages_largest_picture_share():
    assert image_cover(pdf_with_image_page("Memo page one", ["GATE CODE 4417"]), [1, 2]) == {1: 0.0, 2: 1.0}


def test_image_cover_of_a_file_pdfium_cannot_read_is_none():
    assert image_cover(b"%PDF-1.4 not really", [1]) is None


def test_a_stamped_scan_is_read_from_its_picture():
    pdf = pdf_with_stamped_picture(image_of_text(BODY), STAMP)
    page = ex.extract("complaint.pdf", pdf, ocr_enabled=True).pages[0]
    assert page.ocr and not page.unreadable
    assert "FORFEITURE" in page.text.upper() and "Honda" in page.text


def test_a_stamped_scan_without_ocr_keeps_its_stamp_and_says_so():
    doc = ex.extract("complaint.pdf", pdf_with_stamped_picture(image_of_text(BODY), STAMP), ocr_enabled=False)
    assert doc.pages[0].text == STAMP and not doc.pages[0].unreadable
    assert any("complaint.pdf: page 1" in w and "only its text layer is kept" in w for w in doc.warnings)


def test_a_photograph_under_its_caption_keeps_the_caption():
    caption = "What is wrong with this picture?"
    page = ex.extract("slides.pdf", pdf_with_stamped_picture(photograph(), caption), ocr_enabled=True).pages[0]
    assert page.text == caption and not page.ocr


def test_the_junk_threshold_sits_between_the_two_kinds_of_layer():
    assert junk_share("The Directors present their report.") < JUNK_SHARE < junk_share(GLYPH_NAMES)
