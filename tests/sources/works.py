"""Real works the source tests serve from their loopback services, as refhound records."""

from __future__ import annotations

from refhound.models import Record

LECUN = Record(
    source="test",
    source_id="lecun",
    source_version="test",
    title="Deep Learning",
    authors=["Yann LeCun", "Yoshua Bengio", "Geoffrey Hinton"],
    venue="Nature",
    year=2015,
    doi="10.1038/nature14539",
    entry_type="article",
)
RESNET = Record(
    source="test",
    source_id="resnet",
    source_version="test",
    title="Deep Residual Learning for Image Recognition",
    authors=["Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun"],
    venue="2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR)",
    year=2016,
    doi="10.1109/CVPR.2016.90",
    entry_type="inproceedings",
)
TRANSFORMER = Record(
    source="test",
    source_id="transformer",
    source_version="test",
    title="Attention is All you Need",
    authors=["Ashish Vaswani", "Noam Shazeer", "Niki Parmar", "Jakob Uszkoreit"],
    venue="Advances in Neural Information Processing Systems 30",
    year=2017,
    doi="10.5555/3295222.3295349",
    entry_type="inproceedings",
)
