"""A tiny nougat checkpoint built on this machine, for running the real model call without the released one.

The architecture is nougat's (transformers' `VisionEncoderDecoderModel`: a Donut-Swin encoder and an MBart
decoder, with `NougatProcessor`'s image processor and tokenizer), at toy sizes and with random weights, except
that the decoder is set to write one given Markdown text and then stop: token embeddings, the decoder layers'
output projections and the head are replaced so that the state at position k is the one-hot of k (learned
position embeddings) and the head maps it to the k-th token of the text, then to `</s>`. A wholly random
decoder never writes `</s>`: it runs to refhound's 3,584-token cap (minutes a page on a CPU) and decodes to
nothing a test can check. The encoder stays random and still reads every page. Nothing is downloaded: the
tokenizer is a byte-level BPE without merges built from its alphabet.
"""

from __future__ import annotations

from pathlib import Path

import torch
from tokenizers import pre_tokenizers
from transformers import (
    DonutSwinConfig,
    MBartConfig,
    NougatProcessor,
    NougatTokenizer,
    VisionEncoderDecoderConfig,
    VisionEncoderDecoderModel,
)
from transformers.models.nougat.image_processing_pil_nougat import NougatImageProcessorPil

IMAGE_SIZE = (64, 48)  # (height, width): the released model reads 896 x 672
_SPECIAL = ["<s>", "<pad>", "</s>", "<unk>", "[START_REF]"]  # nougat's own first ids: bos, pad, eos, unk
_BOS, _PAD, _EOS = 0, 1, 2


def _tokenizer() -> NougatTokenizer:
    vocab = {token: i for i, token in enumerate(_SPECIAL)}
    for character in sorted(pre_tokenizers.ByteLevel.alphabet()):
        vocab[character] = len(vocab)
    return NougatTokenizer(vocab=vocab, merges=[])


def build_checkpoint(directory: Path, markdown: str, seed: int = 0) -> Path:
    """Save to `directory` a tiny nougat model whose decoder writes `markdown` for every page; return it."""
    tokenizer = _tokenizer()
    ids = tokenizer(markdown, add_special_tokens=False).input_ids
    width = len(ids) + 1  # one position a token, and one for </s>
    encoder = DonutSwinConfig(
        image_size=list(IMAGE_SIZE),
        patch_size=4,
        embed_dim=16,
        depths=[1, 1],
        num_heads=[1, 2],
        window_size=4,
    )
    decoder = MBartConfig(
        vocab_size=len(tokenizer),
        d_model=width,
        decoder_layers=1,
        decoder_attention_heads=1,
        decoder_ffn_dim=16,
        max_position_embeddings=4096,  # room for refhound's max_new_tokens (3,584), as in the released model
        is_decoder=True,
        add_cross_attention=True,
        scale_embedding=True,
        add_final_layer_norm=True,
        tie_word_embeddings=False,
        bos_token_id=_BOS,
        pad_token_id=_PAD,
        eos_token_id=_EOS,
    )
    config = VisionEncoderDecoderConfig.from_encoder_decoder_configs(encoder, decoder)
    config.decoder_start_token_id, config.pad_token_id, config.eos_token_id = _BOS, _PAD, _EOS
    config.tie_word_embeddings = False
    torch.manual_seed(seed)
    model = VisionEncoderDecoderModel(config=config)
    inner = model.decoder.model.decoder
    with torch.no_grad():
        inner.embed_tokens.weight.zero_()
        positions = inner.embed_positions.weight  # row k + 2 is position k (MBart's offset)
        positions.zero_()
        positions[2 : 2 + width, :width] = torch.eye(width)
        for layer in inner.layers:  # each layer adds nothing to the residual stream
            for projection in (layer.self_attn.out_proj, layer.encoder_attn.out_proj, layer.fc2):
                projection.weight.zero_()
                projection.bias.zero_()
        head = model.decoder.lm_head.weight
        head.zero_()
        for position, token in enumerate([*ids, _EOS]):
            head[token, position] = 10.0
    model.save_pretrained(directory)
    image_processor = NougatImageProcessorPil(size={"height": IMAGE_SIZE[0], "width": IMAGE_SIZE[1]})
    NougatProcessor(image_processor=image_processor, tokenizer=tokenizer).save_pretrained(directory)
    return directory
