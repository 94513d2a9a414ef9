"""The text reader the lettering guard reads (`sketch_env.picture.reading`) and the heuristic's
``lettering`` factor, on the real vendored PP-OCRv4 models.

Words are drawn with Pillow's bundled font; the lettering hack and the paintings are real
p5.brush renders (tests/data/rendered).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from sketch_env.picture.reading import TextReader
from sketch_env.rewardcheck.degrade import PICTURE_DEGRADATIONS
from sketch_env.scoring import HeuristicScorer, heuristic_terms

DATA = Path(__file__).resolve().parents[1] / "data" / "rendered"
PAINTINGS = ("flower", "garden", "landscape", "darkblob", "fatstroke")


def rendered(name: str) -> Image.Image:
    with Image.open(DATA / f"{name}.png") as image:
        return image.convert("RGB")


def word(text: str, angle: float = 0.0, size: int = 90) -> Image.Image:
    """A word in dark letters on paper, turned by ``angle`` degrees about the centre."""
    layer = Image.new("RGB", (600, 600), (245, 240, 228))
    font = ImageFont.load_default(size=size)
    ImageDraw.Draw(layer).text((300, 300), text, fill=(25, 25, 30), font=font, anchor="mm")
    return layer.rotate(angle, resample=Image.Resampling.BICUBIC, fillcolor=(245, 240, 228))


@pytest.fixture(scope="module")
def reader() -> TextReader:
    return TextReader()


def test_a_word_is_read(reader: TextReader) -> None:
    (region,) = reader.read(word("ROSES"))
    assert region.text == "ROSES"
    assert region.confidence > 0.9
    assert 0.02 < region.area < 0.2
    assert region.centre == pytest.approx((0.5, 0.5), abs=0.05)
    assert abs(region.angle) < 3


@pytest.mark.parametrize("angle", [30.0, -45.0, 180.0])
def test_slanted_and_upside_down_words_are_read(reader: TextReader, angle: float) -> None:
    # Cut-outs follow each region's principal axis and are read both ways up, so turning a
    # label does not hide it.
    regions = reader.read(word("GARDEN", angle))
    assert [r.text for r in regions] == ["GARDEN"], regions
    assert reader.text_fraction(word("GARDEN", angle)) > 0.02


def test_paintings_blank_paper_and_noise_read_as_nothing(reader: TextReader) -> None:
    noise = Image.fromarray(np.random.default_rng(0).integers(0, 256, (600, 600, 3), np.uint8))
    for image in [rendered(n) for n in PAINTINGS] + [Image.new("RGB", (600, 600), "white"), noise]:
        assert reader.read(image) == []
        assert reader.text_fraction(image) == 0.0


def test_tiny_and_empty_pictures_are_read_without_error(reader: TextReader) -> None:
    assert reader.read(np.zeros((0, 0, 3), np.uint8)) == []
    assert reader.read(np.zeros((4, 4, 3), np.uint8)) == []
    # A small picture is upscaled to the detector's size, not refused.
    assert [r.text for r in reader.read(word("ROSES", size=200).resize((96, 96)))] == ["ROSES"]


def test_the_lettering_hack_is_read_and_no_longer_pays() -> None:
    # The brush_lettered_label hack as rendered: charcoal lines spelling FLOWERS. Without
    # reading, image statistics rate it above real paintings (the hack's 68 % win-rate before
    # the reader); with it, below all of them.
    lettering = rendered("lettering")
    regions = TextReader().read(lettering)
    assert regions and sum(c.isalpha() for c in regions[0].text) >= 5, regions
    terms = heuristic_terms(lettering)
    assert terms["text_fraction"] > 0.1
    assert terms["lettering_factor"] == pytest.approx(0.1)
    paintings = [HeuristicScorer().score_one(rendered(n)).value for n in PAINTINGS[:3]]
    blind = HeuristicScorer(read_text=False).score_one(lettering).value
    assert blind > max(paintings)
    assert HeuristicScorer().score_one(lettering).value < min(paintings)


@pytest.mark.parametrize("name", ["lettering_column", "lettering_scattered"])
def test_letters_in_a_column_or_scattered_are_read(name: str) -> None:
    # A column is one tall region (its letters lie on their side once straightened): it is
    # cut at a few pitches and re-flowed into a line. Scattered letters are one glyph per
    # region: two read with confidence make the picture lettering.
    regions = TextReader().read(rendered(name))
    assert sum(sum(c.isalnum() for c in r.text) for r in regions) >= 2, regions
    assert heuristic_terms(rendered(name))["lettering_factor"] == pytest.approx(0.1)


def stacked_columns(
    count: int = 20, size: int = 26, pitch: int = 30, rows: int = 24
) -> Image.Image:
    """Columns of stacked letters across the picture: the shape that made reading unbounded
    (24 columns of brush letters took 14.7 s on one core before the budget)."""
    picture = Image.new("RGB", (600, 600), (245, 240, 228))
    draw, font = ImageDraw.Draw(picture), ImageFont.load_default(size=size)
    for column in range(count):
        for row in range(rows):
            letter = "FLOWERS"[(row + column) % 7]
            draw.text(
                (8 + column * pitch, 4 + row * (600 // rows)), letter, fill=(20, 20, 20), font=font
            )
    return picture


def test_reading_work_is_bounded_and_fails_closed_at_the_bound(monkeypatch) -> None:
    # Past the budget the remaining regions are not read, and count as text: a picture that
    # needs that much reading is made of text-like columns. Counted in recogniser units, the
    # bound the module documents (about 4 s of one core).
    from sketch_env.picture import reading

    spent: list[float] = []
    recognise = reading._recognise
    monkeypatch.setattr(
        reading,
        "_recognise",
        lambda views: spent.append(sum(reading._units(v) for v in views)) or recognise(views),
    )
    regions = TextReader().read(stacked_columns())
    assert spent and sum(spent) <= reading._READ_BUDGET
    assert any(not region.read for region in regions)
    assert TextReader().text_fraction(stacked_columns()) > 0.03
    # No painting comes near the bound: every region of the test paintings is read.
    for name in PAINTINGS:
        spent.clear()
        assert all(region.read for region in TextReader().read(rendered(name)))
        assert sum(spent) < reading._READ_BUDGET / 2


def test_a_lone_confident_glyph_is_not_lettering(reader: TextReader) -> None:
    # One letter-like shape (a charcoal pine reads "M") is not a label; two are.
    assert reader.read(word("R", size=200)) == []
    two = word("R", size=200)
    two.paste(word("K", size=200).crop((200, 150, 400, 450)), (380, 150))
    assert len(reader.read(two)) >= 1


@pytest.mark.parametrize("name", PAINTINGS[:3])
def test_a_text_label_over_a_painting_lowers_its_score(name: str) -> None:
    label, _ = PICTURE_DEGRADATIONS["text_label"]
    painting = rendered(name)
    labelled = label(painting, 0)
    scorer = HeuristicScorer()
    assert scorer.score_one(labelled).value < scorer.score_one(painting).value
    assert heuristic_terms(labelled)["lettering_factor"] < 0.2
    assert heuristic_terms(painting)["lettering_factor"] == 1.0


def test_reading_is_deterministic_across_threads(reader: TextReader) -> None:
    # The heuristic scores in worker threads; the shared sessions must give the same answer.
    pictures = [word("ROSES"), rendered("lettering"), rendered("garden")] * 2
    first = [reader.read(p) for p in pictures]
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(reader.read, pictures)) == first


def test_read_text_false_skips_the_reader() -> None:
    terms = heuristic_terms(word("ROSES"), read_text=False)
    assert terms["text_fraction"] == 0.0 and terms["lettering_factor"] == 1.0
    assert "read_text=False" in repr(HeuristicScorer(read_text=False))


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"detector_side": 32}, "detector_side"),
        ({"min_characters": 0}, "min_characters"),
        ({"min_confidence": 1.5}, "min_confidence"),
        ({"glyph_confidence": -0.1}, "glyph_confidence"),
        ({"min_glyphs": 0}, "min_glyphs"),
    ],
)
def test_settings_are_validated(kwargs: dict[str, float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TextReader(**kwargs)  # type: ignore[arg-type]


def test_a_missing_model_says_how_to_get_it_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A $SKETCH_ENV_VENDOR_DIR holding only a modified p5.js (as the LGPL allows) lacks the
    # models: the error says so and how to fix it.
    from sketch_env.catalog import assets
    from sketch_env.picture import reading

    (tmp_path / "p5.brush").mkdir()
    (tmp_path / "p5.brush" / "p5.brush.js").write_text("")
    monkeypatch.setenv("SKETCH_ENV_VENDOR_DIR", str(tmp_path))
    assets.vendor_dir.cache_clear()
    reading._session.cache_clear()
    try:
        with pytest.raises(FileNotFoundError, match="pp-ocrv4/ folder"):
            reading._session("pp-ocrv4/ch_PP-OCRv4_det_infer.onnx")
    finally:
        monkeypatch.delenv("SKETCH_ENV_VENDOR_DIR")
        assets.vendor_dir.cache_clear()
        reading._session.cache_clear()
