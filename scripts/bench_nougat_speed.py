#!/usr/bin/env python
"""How long nougat takes on this machine's CPU at the released model's sizes, with random weights.

    python scripts/bench_nougat_speed.py [--tokens 200] [--repeat 2]

No released checkpoint is here, so quality cannot be measured; speed can, since it depends on the shapes and
not on the weights. The model is built from a config of facebook/nougat-base's sizes (Donut-Swin encoder:
896 x 672 input, patch 4, window 7, embed 128, depths 2-2-14-2, heads 4-8-16-32; MBart decoder: 10 layers,
d_model 1024, 16 heads, feed-forward 4096, 50,000 tokens, 4,096 positions) and timed on one blank page image
as refhound's `page_markdown` runs it: the encoder once, then `generate` for `--tokens` new tokens (the end
token suppressed so that every run writes that many). A page of references is about 1,000-2,000 tokens.
"""

from __future__ import annotations

import argparse
import time

import torch
from transformers import DonutSwinConfig, MBartConfig, VisionEncoderDecoderConfig, VisionEncoderDecoderModel


def model() -> VisionEncoderDecoderModel:
    encoder = DonutSwinConfig(
        image_size=[896, 672],
        patch_size=4,
        embed_dim=128,
        depths=[2, 2, 14, 2],
        num_heads=[4, 8, 16, 32],
        window_size=7,
    )
    decoder = MBartConfig(
        vocab_size=50000,
        d_model=1024,
        decoder_layers=10,
        decoder_attention_heads=16,
        decoder_ffn_dim=4096,
        max_position_embeddings=4096,
        is_decoder=True,
        add_cross_attention=True,
        scale_embedding=True,
        add_final_layer_norm=True,
    )
    config = VisionEncoderDecoderConfig.from_encoder_decoder_configs(encoder, decoder)
    config.decoder_start_token_id, config.pad_token_id, config.eos_token_id = 0, 1, 2
    return VisionEncoderDecoderModel(config=config).eval()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tokens", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    torch.manual_seed(0)
    nougat = model()
    parameters = sum(parameter.numel() for parameter in nougat.parameters())
    threads = torch.get_num_threads()
    print(f"{parameters / 1e6:.0f} M parameters, torch {torch.__version__}, {threads} threads")
    pixels = torch.zeros(1, 3, 896, 672)
    for _ in range(args.repeat):
        with torch.no_grad():
            started = time.perf_counter()
            nougat.encoder(pixels)
            encoded = time.perf_counter() - started
            started = time.perf_counter()
            ids = nougat.generate(
                pixels, min_new_tokens=args.tokens, max_new_tokens=args.tokens, bad_words_ids=[[3]]
            )
            generated = time.perf_counter() - started
        tokens = ids.shape[1] - 1
        print(
            f"encoder {encoded:.2f} s; generate {generated:.1f} s for {tokens} tokens "
            f"({generated / tokens * 1000:.0f} ms a token, the encoder included)"
        )


if __name__ == "__main__":
    main()
