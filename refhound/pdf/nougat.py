"""The nougat OCR model, run through Hugging Face transformers' own classes on a local checkpoint.

nougat runs through `NougatProcessor` with `VisionEncoderDecoderModel` (in transformers since 4.34) rather
than the `nougat-ocr` package: that package pins old transformers, timm and pytorch-lightning releases that
cannot share an environment with the rest, while transformers' classes need only transformers and torch, in an
optional extra (`pip install 'refhound[nougat]'`, which adds the Levenshtein and nltk packages transformers'
post-processing asks for). torch comes in whatever build the user's machine wants (CUDA for a GPU, a CPU
build otherwise; `scripts/setup --with-nougat` installs torch 2.13.0); nothing is installed by default.

The model is read from a local checkpoint directory the user names (`extract.nougat_checkpoint`, or
`refhound extract --nougat-checkpoint DIR`), such as a download of `facebook/nougat-base`; nothing is
downloaded (`local_files_only`). Without the directory, transformers or torch, `nougat_problem` says why,
and Tesseract reads the pages instead, with that warning.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pymupdf

NOUGAT_DPI = 96  # nougat was trained on pages rendered at 96 dpi; its processor resizes to 896 x 672 anyway
_MAX_NEW_TOKENS = 3584  # nougat's own limit for one page


def nougat_problem(checkpoint: Path | None) -> str | None:
    """Why nougat cannot run here, or None when it can."""
    if checkpoint is None:
        return "no nougat checkpoint directory is set (extract.nougat_checkpoint or --nougat-checkpoint DIR)"
    if not (checkpoint / "config.json").is_file():
        return f"the nougat checkpoint directory {checkpoint} holds no model (no config.json)"
    # Levenshtein and nltk: transformers' post-processing of nougat's output refuses to run without them.
    modules = ("transformers", "torch", "Levenshtein", "nltk")
    missing = [name for name in modules if importlib.util.find_spec(name) is None]
    if missing:
        return f"{', '.join(missing)} not installed (pip install 'refhound[nougat]')"
    return None


def page_image(page: pymupdf.Page) -> Any:
    """The page as the RGB PIL image nougat reads."""
    from PIL import Image

    pixmap = page.get_pixmap(dpi=NOUGAT_DPI, colorspace=pymupdf.csRGB, alpha=False)
    return Image.frombytes("RGB", (pixmap.width, pixmap.height), pixmap.samples)


def page_markdown(images: Sequence[Any], checkpoint: Path) -> list[str]:
    """nougat's Markdown for each page image, from the local checkpoint, on a GPU if torch sees one."""
    import torch
    from transformers import NougatProcessor, VisionEncoderDecoderModel

    processor = NougatProcessor.from_pretrained(checkpoint, local_files_only=True)
    model = VisionEncoderDecoderModel.from_pretrained(checkpoint, local_files_only=True)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model.to(device).eval()
    pages = []
    for image in images:
        pixel_values = processor(image, return_tensors="pt").pixel_values.to(device)
        with torch.no_grad():
            ids = model.generate(
                pixel_values,
                min_length=1,
                max_new_tokens=_MAX_NEW_TOKENS,
                bad_words_ids=[[processor.tokenizer.unk_token_id]],
            )
        text = processor.batch_decode(ids, skip_special_tokens=True)[0]
        pages.append(processor.post_process_generation(text, fix_markdown=False))
    return pages
