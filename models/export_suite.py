#!/usr/bin/env python3
"""export_suite.py - the model suite: real PyTorch architectures (torchvision, timm, HuggingFace
transformers, a few detection/segmentation heads) with seeded random weights, exported to ONNX in
two flavours and cached under build/models/suite/<flavour>/<name>.onnx.

Flavours:
  ts17  the TorchScript exporter (torch.onnx.export(..., dynamo=False)) at opset 17
  new   the newest exporter (torch.onnx.export(..., dynamo=True), needs onnxscript) at the newest
        opset it supports (torch < 2.5: the TorchScript exporter at its newest opset)
  ortopt  the ts17 file as onnxruntime's optimizer rewrites it (ORT_ENABLE_EXTENDED, written with
        optimized_model_filepath): com.microsoft fused ops (FusedConv, FusedGemm, FusedMatMul,
        BiasGelu, SkipLayerNormalization, ...) as files people ship have them
  trf   the ts17 file of a transformer as onnxruntime's transformers optimizer
        (onnxruntime.transformers.optimizer, the model type of TRANSFORMER_TYPES, its Python
        fusions only) rewrites it: SkipLayerNormalization, BiasGelu, FastGelu, Attention where
        it finds the pattern; only the models of TRANSFORMER_TYPES have this flavour
  trfdyn the trf file quantized by quantize_dynamic: QEmbedLayerNormalization, QAttention,
        DynamicQuantizeLinear + MatMulInteger
  qdq   the ts17 file of a classifier of QUANTIZED_VISION quantized by onnxruntime's
        quantize_static: QDQ format, uint8 activations, int8 weights per channel, calibrated
        (MinMax) on 8 seeded inputs
  qdqs8 the same with int8 activations (quantize_static's default, S8S8)
  qop   the same in the QOperator format (QLinearConv, QLinearMatMul, QLinearAdd, ...)
  dyn   the ts17 file of a model of QUANTIZED_TEXT (transformers, the CRNN) quantized by quantize_dynamic
        (DynamicQuantizeLinear + MatMulInteger, int8 weights)
  fp16  the ts17 file of a model of HALF_MODELS converted to float16 by onnxconverter_common
        (inputs and outputs too)

No weights are downloaded: timm models use pretrained=False, transformers models are built with
`from_config` from the architecture's published configuration (e.g. BertConfig() is bert-base).
Batch (and sequence) dims are symbolic (dynamic_axes); the example inputs use batch 2 so no exporter
specialises the batch to 1. BatchNorm running statistics are calibrated on seeded random inputs
(as models/export_torchvision.py does) so that activations do not vanish.

Usage: models/export_suite.py [--flavour ts17|new|all] [--filter REGEX] [--list] [--check]
Used by utils/model_suite.py (export(), make_feeds(), SUITE, SUBSETS).
"""
import argparse
import inspect
import os
import re
import sys
import tempfile
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from export_torchvision import calibrate_batchnorm, publish  # noqa: E402

FLAVOURS = ("ts17", "new", "ortopt", "trf", "trfdyn", "qdq", "qdqs8", "qop", "dyn", "fp16")
# The models the quantized and half flavours are made of (issue 43).
QUANTIZED_VISION = ("resnet18", "resnet50", "mobilenet_v2", "efficientnet_b0")
# and the recurrent CRNN, whose LSTMs quantize_dynamic writes as DynamicQuantizeLSTM.
QUANTIZED_TEXT = ("hf_bert_base", "hf_distilbert_base", "hf_bert_tiny", "crnn")
HALF_MODELS = ("resnet50", "hf_bert_base", "resnet18")
# The trf flavour's source: the ts17 export of a transformers model built with eager attention.
EAGER = "ts17-eager"
DEFAULT_CACHE = os.path.join(ROOT, "build", "models", "suite")

# Concrete values of the symbolic dims: the export examples (batch 2 so that no exporter
# specialises it to 1) and the run of the correctness harness.
EXPORT_DIMS = {"batch": 2, "seq": 32, "dec_seq": 8}
RUN_DIMS = {"batch": 1, "seq": 32, "dec_seq": 8}


class ExportError(Exception):
    pass


class Input:
    """One model input: `shape` mixes ints and symbolic dim names (keys of EXPORT_DIMS)."""

    def __init__(self, name, shape, dtype="float32", low=None, high=None, kind=None):
        self.name, self.shape, self.dtype = name, tuple(shape), dtype
        self.low, self.high = low, high  # integer inputs: uniform in [low, high)
        self.kind = kind  # "mask": ones with the last quarter of each row zero (padding)

    def concrete(self, dims):
        return tuple(dims[d] if isinstance(d, str) else d for d in self.shape)


class Spec:
    def __init__(self, name, source, family, build, inputs, outputs, classifier=False, note=""):
        self.name, self.source, self.family = name, source, family
        self.build = build  # () -> torch.nn.Module in eval mode (called after torch.manual_seed(0))
        self.inputs, self.outputs = inputs, outputs
        self.classifier = classifier  # outputs[0] is [batch, classes] logits: top-1/top-5 reported
        self.note = note


SUITE = []


def register(name, source, family, build, inputs, outputs, classifier=False, note=""):
    SUITE.append(Spec(name, source, family, build, inputs, outputs, classifier, note))


def image(size=224, channels=3, name="input"):
    return [Input(name, ("batch", channels, size, size))]


def text(vocab, token_types=0, mask=True):
    ins = [Input("input_ids", ("batch", "seq"), "int64", 0, vocab)]
    if mask:
        ins.append(Input("attention_mask", ("batch", "seq"), "int64", kind="mask"))
    if token_types:
        ins.append(Input("token_type_ids", ("batch", "seq"), "int64", 0, token_types))
    return ins


def randomize_zero_weights(model):
    """Random-initialises weights that the architecture's init leaves all zero, so that no part
    of the model is dead and no output is constant: classifier heads (torchvision's ViT, timm's
    MLP-Mixer and ResMLP zero them) get N(0, 0.02); norm scales zeroed by zero_init_last
    (timm's residual blocks) get 1. Biases and other vectors stay as they are."""
    import torch

    norms = (torch.nn.modules.batchnorm._BatchNorm, torch.nn.GroupNorm, torch.nn.LayerNorm)
    with torch.no_grad():
        for module in model.modules():
            w = getattr(module, "weight", None)
            if not isinstance(w, torch.nn.Parameter) or w.numel() <= 1 or w.any():
                continue
            if isinstance(module, norms):
                w.fill_(1.0)
            elif w.dim() >= 2:
                w.normal_(0.0, 0.02)
    return model


# --------------------------------------------------------------------------------------------
# torchvision


def torchvision_model(name, input_size=224, **kwargs):
    def build():
        import torchvision

        ctor = getattr(torchvision.models, name)
        try:
            model = ctor(weights=None, **kwargs)
        except TypeError:  # torchvision < 0.13
            model = ctor(pretrained=False, **kwargs)
        model = randomize_zero_weights(model)
        return calibrate_batchnorm(model, input_shape=(3, input_size, input_size))
    return build


for _name in ("resnet18", "resnet50", "mobilenet_v2", "mobilenet_v3_large", "mobilenet_v3_small",
              "efficientnet_b0", "squeezenet1_1", "shufflenet_v2_x1_0", "mnasnet1_0",
              "regnet_y_400mf"):
    register(_name, "torchvision", "conv", torchvision_model(_name), image(), ["output"],
             classifier=True)
register("vit_b_16", "torchvision", "vit", torchvision_model("vit_b_16"), image(), ["output"],
         classifier=True)

# --------------------------------------------------------------------------------------------
# timm (random init; exportable=True as timm's own onnx_export.py does)


def timm_model(name):
    def build():
        import timm

        model = timm.create_model(name, pretrained=False, exportable=True)
        size = model.pretrained_cfg.get("input_size", (3, 224, 224))
        return calibrate_batchnorm(randomize_zero_weights(model), input_shape=tuple(size))
    return build


for _name, _family, _size in (
        ("convnext_atto", "conv", 224),
        ("regnetx_002", "conv", 224),
        ("densenet121", "conv", 224),
        ("ghostnet_100", "conv", 224),
        ("tf_efficientnet_lite0", "conv", 224),
        ("rexnet_100", "conv", 224),
        ("dla34", "conv", 224),
        ("cspresnet50", "conv", 256),
        ("inception_v3", "conv", 299),
        ("deit_tiny_patch16_224", "vit", 224),
        ("swin_tiny_patch4_window7_224", "vit", 224),
        ("pvt_v2_b0", "vit", 224),
        ("mixer_s16_224", "mlp", 224),
        ("resmlp_12_224", "mlp", 224),
        ("poolformer_s12", "mlp", 224),
        ("levit_128s", "hybrid", 224),
        ("mobilevit_xxs", "hybrid", 256),
        ("efficientformer_l1", "hybrid", 224)):
    register("timm_" + _name, "timm", _family, timm_model(_name), image(_size), ["output"],
             classifier=True)

# --------------------------------------------------------------------------------------------
# HuggingFace transformers (from_config: the published architecture, random weights)


# The attention implementation transformers models are built with while set ("eager": the
# explicit MatMul/Softmax graph onnxruntime's transformers optimizer fuses into Attention; None:
# the library's default, scaled_dot_product_attention).
_ATTN_IMPLEMENTATION = None


def _with_attention(config):
    if _ATTN_IMPLEMENTATION:
        config._attn_implementation = _ATTN_IMPLEMENTATION
    return config


def _hf_outputs(out, keys):
    return tuple(out[k] for k in keys)


def _torch_nn():
    import torch

    return torch.nn


def hf_text_model(config_fn, model_cls, keys, eval_kwargs=None, encoder_only=False):
    def build():
        import transformers

        config = _with_attention(config_fn(transformers))
        model = getattr(transformers, model_cls)(config).eval()
        if encoder_only:
            model = model.get_encoder()
        nn = _torch_nn()

        class TextModel(nn.Module):
            def __init__(self):
                super().__init__()
                self.model = model

            def forward(self, input_ids, attention_mask=None, token_type_ids=None):
                kw = dict(input_ids=input_ids, attention_mask=attention_mask)
                if token_type_ids is not None:
                    kw["token_type_ids"] = token_type_ids
                kw.update(eval_kwargs or {})
                return _hf_outputs(self.model(**kw), keys)

        return TextModel().eval()
    return build


def bert_base(t):
    return t.BertConfig()  # the defaults are bert-base-uncased


def bert_tiny(t):  # google/bert_uncased_L-2_H-128_A-2 (CI subset only)
    return t.BertConfig(hidden_size=128, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=512)


def roberta_base(t):
    return t.RobertaConfig(max_position_embeddings=514, type_vocab_size=1, layer_norm_eps=1e-5,
                           pad_token_id=1, bos_token_id=0, eos_token_id=2)


def albert_base_v2(t):
    return t.AlbertConfig(embedding_size=128, hidden_size=768, num_attention_heads=12,
                          intermediate_size=3072, hidden_act="gelu_new")


def bart_base(t):
    return t.BartConfig(d_model=768, encoder_layers=6, decoder_layers=6, encoder_attention_heads=12,
                        decoder_attention_heads=12, encoder_ffn_dim=3072, decoder_ffn_dim=3072)


register("hf_bert_base", "transformers", "text",
         hf_text_model(bert_base, "BertModel", ["last_hidden_state", "pooler_output"]),
         text(30522, token_types=2), ["last_hidden_state", "pooler_output"])
register("hf_bert_tiny", "transformers", "text",
         hf_text_model(bert_tiny, "BertModel", ["last_hidden_state", "pooler_output"]),
         text(30522, token_types=2), ["last_hidden_state", "pooler_output"],
         note="google/bert_uncased_L-2_H-128_A-2 configuration (CI subset)")
register("hf_distilbert_base", "transformers", "text",
         hf_text_model(lambda t: t.DistilBertConfig(), "DistilBertModel", ["last_hidden_state"]),
         text(30522), ["last_hidden_state"])
register("hf_roberta_base", "transformers", "text",
         hf_text_model(roberta_base, "RobertaModel", ["last_hidden_state", "pooler_output"]),
         [Input("input_ids", ("batch", "seq"), "int64", 3, 50265),
          Input("attention_mask", ("batch", "seq"), "int64", kind="mask")],
         ["last_hidden_state", "pooler_output"])
register("hf_albert_base_v2", "transformers", "text",
         hf_text_model(albert_base_v2, "AlbertModel", ["last_hidden_state", "pooler_output"]),
         text(30000, token_types=2), ["last_hidden_state", "pooler_output"])
register("hf_electra_small", "transformers", "text",
         hf_text_model(lambda t: t.ElectraConfig(), "ElectraModel", ["last_hidden_state"]),
         text(30522, token_types=2), ["last_hidden_state"],
         note="ElectraConfig() is electra-small-discriminator")
register("hf_gpt2", "transformers", "text",
         hf_text_model(lambda t: t.GPT2Config(), "GPT2LMHeadModel", ["logits"],
                       {"use_cache": False}),
         text(50257), ["logits"])
register("hf_bart_base_encoder", "transformers", "text",
         hf_text_model(bart_base, "BartModel", ["last_hidden_state"], encoder_only=True),
         text(50265), ["last_hidden_state"], note="bart-base configuration, the encoder only")
def t5_small(t):
    # Eager attention: the dynamo exporter (torch 2.15) fails to decompose T5's SDPA path with
    # symbolic dims ("Cannot view a tensor with shape [s0, s1, 8, 64] ..."); the math is the same.
    try:
        return t.T5Config(attn_implementation="eager")
    except TypeError:  # transformers without the option: only the eager path exists
        return t.T5Config()


register("hf_t5_small_encoder", "transformers", "text",
         hf_text_model(lambda t: t5_small(t), "T5EncoderModel", ["last_hidden_state"]),
         text(32128), ["last_hidden_state"], note="T5Config() is t5-small")


def t5_decoder_step():
    import transformers

    model = transformers.T5ForConditionalGeneration(t5_small(transformers)).eval()
    nn = _torch_nn()

    class T5DecoderStep(nn.Module):
        """One decoding step without a KV cache: logits for decoder_input_ids (the tokens so far)
        attending to the encoder's output."""

        def __init__(self):
            super().__init__()
            self.decoder, self.lm_head = model.get_decoder(), model.lm_head
            tied = getattr(model.config, "tie_word_embeddings", True)
            self.scale = model.model_dim ** -0.5 if tied else 1.0

        def forward(self, decoder_input_ids, encoder_hidden_states):
            h = self.decoder(input_ids=decoder_input_ids, encoder_hidden_states=encoder_hidden_states,
                             use_cache=False)[0]
            return self.lm_head(h * self.scale)

    return T5DecoderStep().eval()


register("hf_t5_small_decoder", "transformers", "text", t5_decoder_step,
         [Input("decoder_input_ids", ("batch", "dec_seq"), "int64", 0, 32128),
          Input("encoder_hidden_states", ("batch", "seq", 512))], ["logits"],
         note="t5-small decoder + lm_head, one step over 8 tokens, no KV cache")


def hf_vit():
    import transformers

    config = _with_attention(transformers.ViTConfig(num_labels=1000))  # vit-base-patch16-224
    model = transformers.ViTForImageClassification(config).eval()
    nn = _torch_nn()

    class ViT(nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, pixel_values):
            return self.model(pixel_values=pixel_values).logits

    return ViT().eval()


register("hf_vit_base", "transformers", "vit", hf_vit, image(name="pixel_values"), ["logits"],
         classifier=True)


def hf_whisper_encoder():
    import transformers

    model = transformers.WhisperModel(transformers.WhisperConfig()).eval()  # whisper-tiny
    nn = _torch_nn()

    class WhisperEncoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.encoder = model.get_encoder()

        def forward(self, input_features):
            return self.encoder(input_features=input_features)[0]

    return WhisperEncoder().eval()


register("hf_whisper_tiny_encoder", "transformers", "speech", hf_whisper_encoder,
         [Input("input_features", ("batch", 80, 3000))], ["last_hidden_state"],
         note="WhisperConfig() is whisper-tiny; 30 s of 80-bin log-mel frames")

# --------------------------------------------------------------------------------------------
# detection / segmentation


def tv_segmentation(name, size):
    def build():
        import torchvision

        ctor = getattr(torchvision.models.segmentation, name)
        try:
            model = ctor(weights=None, weights_backbone=None, aux_loss=False)
        except TypeError:  # torchvision < 0.13
            model = ctor(pretrained=False, pretrained_backbone=False, aux_loss=False)
        model = calibrate_batchnorm(model, input_shape=(3, size, size), batch_size=4)
        nn = _torch_nn()

        class Seg(nn.Module):
            def __init__(self):
                super().__init__()
                self.model = model

            def forward(self, input):
                return self.model(input)["out"]

        return Seg().eval()
    return build


register("fcn_resnet50", "torchvision", "segmentation", tv_segmentation("fcn_resnet50", 224),
         image(), ["output"], note="torchvision FCN, ResNet-50 backbone, 224x224")
register("deeplabv3_mobilenet_v3_large", "torchvision", "segmentation",
         tv_segmentation("deeplabv3_mobilenet_v3_large", 224), image(), ["output"])
register("lraspp_mobilenet_v3_large", "torchvision", "segmentation",
         tv_segmentation("lraspp_mobilenet_v3_large", 224), image(), ["output"])


def yolo_head():
    """A YOLOv5-style detector in a few lines: Conv-BN-SiLU backbone (strides 8/16/32), 1x1
    detection convs, sigmoid, grid + anchor decoding of boxes, all scales concatenated."""
    import torch

    nn = torch.nn

    def cbs(cin, cout, stride):
        return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout),
                             nn.SiLU())

    class Detect(nn.Module):
        def __init__(self, nc=80, chs=(64, 128, 256), strides=(8, 16, 32)):
            super().__init__()
            self.no, self.na, self.strides = nc + 5, 3, strides
            self.anchors = [torch.tensor(a, dtype=torch.float32).view(1, 3, 1, 1, 2) for a in (
                [[10, 13], [16, 30], [33, 23]], [[30, 61], [62, 45], [59, 119]],
                [[116, 90], [156, 198], [373, 326]])]
            self.m = nn.ModuleList(nn.Conv2d(c, self.no * self.na, 1) for c in chs)

        def forward(self, feats):
            out = []
            for i, x in enumerate(feats):
                x = self.m[i](x)
                b, _, h, w = x.shape
                x = x.view(b, self.na, self.no, h, w).permute(0, 1, 3, 4, 2).sigmoid()
                ys, xs = torch.meshgrid(torch.arange(h, dtype=torch.float32),
                                        torch.arange(w, dtype=torch.float32), indexing="ij")
                grid = torch.stack((xs, ys), 2).view(1, 1, h, w, 2)
                xy = (x[..., 0:2] * 2 - 0.5 + grid) * self.strides[i]
                wh = (x[..., 2:4] * 2) ** 2 * self.anchors[i]
                out.append(torch.cat((xy, wh, x[..., 4:]), -1).view(b, -1, self.no))
            return torch.cat(out, 1)

    class Yolo(nn.Module):
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(cbs(3, 16, 2), cbs(16, 32, 2), cbs(32, 64, 2))
            self.s16, self.s32 = cbs(64, 128, 2), cbs(128, 256, 2)
            self.up = nn.Upsample(scale_factor=2, mode="nearest")
            self.fuse = cbs(256 + 128, 128, 1)
            self.detect = Detect()

        def forward(self, input):
            p3 = self.stem(input)
            p4 = self.s16(p3)
            p5 = self.s32(p4)
            p4 = self.fuse(torch.cat((self.up(p5), p4), 1))
            return self.detect([p3, p4, p5])

    return calibrate_batchnorm(Yolo(), input_shape=(3, 256, 256))


register("yolo_head", "custom", "detection", yolo_head, image(256), ["output"],
         note="YOLOv5-style detect head with a small Conv-BN-SiLU backbone, 256x256")

# --------------------------------------------------------------------------------------------
# recurrent nets: PyTorch's LSTM and GRU export as ONNX LSTM/GRU nodes (one per layer, both
# directions in one node), with the Transposes/Squeezes of batch_first around them


def sequence(features, name="input"):
    return [Input(name, ("batch", "seq", features))]


def recurrent_tagger(cell, features=64, hidden=128, layers=2, classes=32):
    """A sequence tagger: a bidirectional `cell` (LSTM or GRU) stack, batch first, then a
    linear layer per step (as in speech and text taggers)."""
    def build():
        import torch

        nn = torch.nn

        class Tagger(nn.Module):
            def __init__(self):
                super().__init__()
                rnn = nn.LSTM if cell == "lstm" else nn.GRU
                self.rnn = rnn(features, hidden, num_layers=layers, batch_first=True,
                               bidirectional=True)
                self.head = nn.Linear(2 * hidden, classes)

            def forward(self, input):
                y, _ = self.rnn(input)
                return self.head(y)

        return Tagger().eval()
    return build


def crnn(height=32, width=128, classes=37, hidden=128):
    """A CRNN text recogniser (Shi et al.): a VGG-style conv stack whose pools halve the height
    to 1 and the width to width/4, the columns as a sequence through a 2-layer bidirectional
    LSTM, per-column class scores (CTC logits, [batch, width/4, classes]). The width is
    symbolic (the suite's seq dim)."""
    def build():
        import torch

        nn = torch.nn

        def block(cin, cout, pool):
            layers = [nn.Conv2d(cin, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]
            if pool:
                layers.append(nn.MaxPool2d(pool, pool))
            return layers

        class CRNN(nn.Module):
            def __init__(self):
                super().__init__()
                self.cnn = nn.Sequential(*block(1, 32, (2, 2)), *block(32, 64, (2, 2)),
                                         *block(64, 128, (2, 1)), *block(128, 128, (2, 1)),
                                         *block(128, 128, (2, 1)))
                self.rnn = nn.LSTM(128, hidden, num_layers=2, batch_first=True,
                                   bidirectional=True)
                self.head = nn.Linear(2 * hidden, classes)

            def forward(self, input):
                f = self.cnn(input)                   # [batch, 128, 1, width / 4]
                f = f.squeeze(2).permute(0, 2, 1)     # [batch, width / 4, 128]
                y, _ = self.rnn(f)
                return self.head(y)

        return calibrate_batchnorm(CRNN(), input_shape=(1, height, width))
    return build


register("lstm_tagger", "custom", "recurrent", recurrent_tagger("lstm"), sequence(64), ["output"],
         note="2-layer bidirectional LSTM (hidden 128, batch first) + linear, seq 32")
register("gru_tagger", "custom", "recurrent", recurrent_tagger("gru"), sequence(64), ["output"],
         note="2-layer bidirectional GRU (hidden 128, batch first) + linear, seq 32")
register("crnn", "custom", "recurrent", crnn(), [Input("input", ("batch", 1, 32, "seq"))],
         ["output"], note="CRNN text recogniser: conv stack + 2-layer BiLSTM, 32 x seq grey "
         "input (the width is its sequence: seq / 4 LSTM steps)")

SUBSETS = {
    # small models for CI: the whole subset (export, compile, run) takes well under 5 minutes
    "ci": ["squeezenet1_1", "mobilenet_v3_small", "hf_bert_tiny", "yolo_head", "crnn",
           "gru_tagger"],
}

# --------------------------------------------------------------------------------------------


def by_name(name):
    for spec in SUITE:
        if spec.name == name:
            return spec
    raise KeyError(f"unknown model {name!r}")


def select(filter_re=None, subset=None):
    specs = SUITE
    if subset:
        names = SUBSETS[subset]
        specs = [s for s in specs if s.name in names]
    if filter_re:
        specs = [s for s in specs if re.search(filter_re, s.name)]
    return specs


def make_feeds(spec, seed=0, dims=None):
    """Seeded numpy inputs for `spec` at the concrete dims (default RUN_DIMS)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    feeds = {}
    for inp in spec.inputs:
        shape = inp.concrete(dims or RUN_DIMS)
        if inp.kind == "mask":
            a = np.ones(shape, dtype=inp.dtype)
            a[..., shape[-1] - shape[-1] // 4:] = 0
        elif inp.dtype.startswith("int"):
            a = rng.integers(inp.low, inp.high, shape).astype(inp.dtype)
        else:
            a = rng.standard_normal(shape).astype(inp.dtype)
        feeds[inp.name] = np.ascontiguousarray(a)
    return feeds


def exporter_info():
    """(has_dynamo, newest opset of the newest exporter) for the installed torch."""
    import torch

    has_dynamo = "dynamo" in inspect.signature(torch.onnx.export).parameters
    try:
        from torch.onnx import _constants as c
        newest = c.ONNX_MAX_OPSET if has_dynamo else getattr(
            c, "ONNX_TORCHSCRIPT_EXPORTER_MAX_OPSET", c.ONNX_MAX_OPSET)
    except ImportError:
        newest = 17
    return has_dynamo, newest


def onnx_path(cache_dir, flavour, name):
    return os.path.join(cache_dir, flavour, name + ".onnx")


# The onnxruntime.transformers optimizer's model type, number of heads and hidden size of each
# suite model it optimizes (the trf flavour). The optimizer cannot always find the last two
# itself ("Failed to detect num_heads and hidden_size for Attention fusion").
TRANSFORMER_TYPES = {"hf_bert_base": ("bert", 12, 768), "hf_bert_tiny": ("bert", 2, 128),
                     "hf_distilbert_base": ("bert", 12, 768),
                     "hf_roberta_base": ("bert", 12, 768),
                     "hf_albert_base_v2": ("bert", 12, 768),
                     "hf_electra_small": ("bert", 4, 256), "hf_gpt2": ("gpt2", 12, 768),
                     "hf_vit_base": ("vit", 12, 768)}


def has_flavour(spec, flavour):
    """Whether `spec` is exported in `flavour` (trf: only the models of TRANSFORMER_TYPES; qdq,
    qop, dyn and fp16: those of QUANTIZED_VISION, QUANTIZED_TEXT and HALF_MODELS)."""
    only = {"trf": TRANSFORMER_TYPES, "trfdyn": TRANSFORMER_TYPES, "qdq": QUANTIZED_VISION,
            "qdqs8": QUANTIZED_VISION,
            "qop": QUANTIZED_VISION,
            "dyn": QUANTIZED_TEXT, "fp16": HALF_MODELS}
    return flavour not in only or spec.name in only[flavour]


def quantize(spec, src, out_path, flavour, verbose=True):
    """Writes `src` (a ts17 file) quantized as `flavour` says (qdq, qop: quantize_static on 8
    seeded calibration inputs; dyn: quantize_dynamic) to out_path, with onnxruntime's tools."""
    try:
        from onnxruntime import quantization as q
    except ImportError as e:
        raise ExportError(f"onnxruntime.quantization is not installed: {e}")
    start = time.monotonic()
    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    tmp = out_path + ".tmp.onnx"
    try:
        if flavour == "dyn":
            q.quantize_dynamic(src, tmp, weight_type=q.QuantType.QInt8)
        elif flavour == "trfdyn":
            # Its com.microsoft ops have no shapes for quantize_dynamic's inference: float.
            q.quantize_dynamic(src, tmp, weight_type=q.QuantType.QInt8,
                               extra_options={"DefaultTensorType": 1})
        else:
            class Calibration(q.CalibrationDataReader):
                def __init__(self):
                    self.feeds = iter([make_feeds(spec, seed) for seed in range(100, 108)])

                def get_next(self):
                    return next(self.feeds, None)

            prepped = out_path + ".prep.onnx"
            q.quant_pre_process(src, prepped, skip_symbolic_shape=True)
            fmt = q.QuantFormat.QOperator if flavour == "qop" else q.QuantFormat.QDQ
            activations = q.QuantType.QInt8 if flavour == "qdqs8" else q.QuantType.QUInt8
            q.quantize_static(prepped, tmp, Calibration(), quant_format=fmt, per_channel=True,
                              activation_type=activations,
                              weight_type=q.QuantType.QInt8)
            os.remove(prepped)
    except Exception as e:
        raise ExportError(f"onnxruntime cannot quantize {src}: {_first_line(e)}")
    os.replace(tmp, out_path)
    if verbose:
        print(f"export_suite: wrote {out_path} ({flavour}, {time.monotonic() - start:.1f} s)",
              file=sys.stderr)
    return out_path


def to_half(src, out_path, verbose=True):
    """Writes `src` converted to float16 by onnxconverter_common (inputs and outputs too)."""
    try:
        import onnx
        from onnxconverter_common import float16
    except ImportError as e:
        raise ExportError(f"onnxconverter_common is not installed: {e}")
    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    tmp = out_path + ".tmp.onnx"
    onnx.save(float16.convert_float_to_float16(onnx.load(src), keep_io_types=False), tmp)
    os.replace(tmp, out_path)
    if verbose:
        print(f"export_suite: wrote {out_path} (float16)", file=sys.stderr)
    return out_path


def optimize_transformer(src, out_path, model_type, num_heads, hidden_size, verbose=True):
    """Writes `src` as onnxruntime's transformers optimizer rewrites it for `model_type` (its
    Python fusions, opt_level 0: no onnxruntime session optimizations) to out_path."""
    try:
        from onnxruntime.transformers import optimizer
    except ImportError as e:
        raise ExportError(f"onnxruntime.transformers is not installed: {e}")
    start = time.monotonic()
    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    tmp = out_path + ".tmp.onnx"
    try:
        model = optimizer.optimize_model(src, model_type=model_type, num_heads=num_heads,
                                         hidden_size=hidden_size,
                                         opt_level=0, use_gpu=False)
        model.save_model_to_file(tmp)
    except Exception as e:
        raise ExportError(f"onnxruntime.transformers cannot optimize {src}: {_first_line(e)}")
    os.replace(tmp, out_path)
    if verbose:
        fused = ", ".join(f"{k} {v}" for k, v in sorted(model.get_fused_operator_statistics().items())
                          if v)
        print(f"export_suite: wrote {out_path} (transformers optimizer, {model_type}: "
              f"{fused or 'nothing fused'}; {time.monotonic() - start:.1f} s)", file=sys.stderr)
    return out_path


def optimize_with_onnxruntime(src, out_path, verbose=True):
    """Writes `src` as onnxruntime's CPU optimizer leaves it (extended level: its fusions into
    com.microsoft ops, no layout changes) to out_path; returns out_path."""
    try:
        import onnxruntime as ort
    except ImportError as e:
        raise ExportError(f"onnxruntime is not installed: {e}")
    start = time.monotonic()
    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    tmp = out_path + ".tmp.onnx"
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    so.optimized_model_filepath = tmp
    try:
        ort.InferenceSession(src, so, providers=["CPUExecutionProvider"])
    except Exception as e:
        raise ExportError(f"onnxruntime cannot optimize {src}: {_first_line(e)}")
    os.replace(tmp, out_path)
    if verbose:
        print(f"export_suite: wrote {out_path} (onnxruntime-optimized, "
              f"{time.monotonic() - start:.1f} s)", file=sys.stderr)
    return out_path


def export(spec, flavour, cache_dir=DEFAULT_CACHE, verbose=True):
    """Writes <cache_dir>/<flavour>/<name>.onnx unless it exists; returns its path.
    Raises ExportError (with the exporter's reason) when the model cannot be built or exported."""
    if flavour not in FLAVOURS + (EAGER,):
        raise ValueError(f"unknown flavour {flavour!r} (known: {', '.join(FLAVOURS)})")
    out_path = onnx_path(cache_dir, flavour, spec.name)
    if os.path.exists(out_path):
        return out_path
    if flavour == "ortopt":
        return optimize_with_onnxruntime(export(spec, "ts17", cache_dir, verbose), out_path,
                                         verbose)
    if flavour in ("qdq", "qdqs8", "qop", "dyn", "fp16"):
        if not has_flavour(spec, flavour):
            raise ExportError(f"{spec.name} has no {flavour} flavour")
        src = export(spec, "ts17", cache_dir, verbose)
        if flavour == "fp16":
            return to_half(src, out_path, verbose)
        return quantize(spec, src, out_path, flavour, verbose)
    if flavour == "trfdyn":
        if not has_flavour(spec, flavour):
            raise ExportError(f"{spec.name} is not a transformer the trf flavour optimizes")
        return quantize(spec, export(spec, "trf", cache_dir, verbose), out_path, flavour, verbose)
    if flavour == "trf":
        if not has_flavour(spec, flavour):
            raise ExportError(f"{spec.name} is not a transformer the trf flavour optimizes")
        return optimize_transformer(export(spec, EAGER, cache_dir, verbose), out_path,
                                    *TRANSFORMER_TYPES[spec.name], verbose)
    try:
        import torch
    except ImportError as e:
        raise ExportError(f"torch is not installed: {e}")
    start = time.monotonic()
    global _ATTN_IMPLEMENTATION
    try:
        torch.manual_seed(0)
        _ATTN_IMPLEMENTATION = "eager" if flavour == EAGER else None
        model = spec.build()
    except ImportError as e:
        raise ExportError(f"cannot build {spec.name}: {e}")
    except Exception as e:  # an architecture the installed package lacks, a bad config, ...
        raise ExportError(f"cannot build {spec.name}: {type(e).__name__}: {_first_line(e)}")
    finally:
        _ATTN_IMPLEMENTATION = None
    gen = torch.Generator().manual_seed(0)
    example = []
    for inp in spec.inputs:
        shape = inp.concrete(EXPORT_DIMS)
        if inp.kind == "mask":
            example.append(torch.ones(shape, dtype=torch.int64))
        elif inp.dtype.startswith("int"):
            example.append(torch.randint(inp.low, inp.high, shape, generator=gen))
        else:
            example.append(torch.randn(shape, generator=gen))
    dynamic_axes = {}
    for inp in spec.inputs:
        axes = {i: d for i, d in enumerate(inp.shape) if isinstance(d, str)}
        if axes:
            dynamic_axes[inp.name] = axes
    for out in spec.outputs:
        dynamic_axes[out] = {0: "batch"}
    has_dynamo, newest = exporter_info()
    kwargs = dict(input_names=[i.name for i in spec.inputs], output_names=list(spec.outputs),
                  dynamic_axes=dynamic_axes)
    if flavour in ("ts17", EAGER):
        kwargs["opset_version"] = 17
        if has_dynamo:
            kwargs["dynamo"] = False
    else:
        kwargs["opset_version"] = newest
        if has_dynamo:
            kwargs.update(dynamo=True, external_data=False, verbose=False)
    out_dir = os.path.dirname(out_path)
    os.makedirs(out_dir, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{spec.name}.", suffix=".onnx.tmp", dir=out_dir)
    os.close(fd)
    try:
        # Not under torch.no_grad(): nn.MultiheadAttention would take its fast path,
        # aten::_native_multi_head_attention, which the TorchScript exporter cannot export.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                torch.onnx.export(model, tuple(example), tmp, **kwargs)
            except Exception as e:
                raise ExportError(_describe(e))
        if os.path.getsize(tmp) == 0:
            raise ExportError("the exporter wrote an empty file")
        publish(tmp, out_path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
        if os.path.exists(tmp + ".data"):
            os.unlink(tmp + ".data")
    if verbose:
        print(f"export_suite: wrote {out_path} ({os.path.getsize(out_path) / 1e6:.1f} MB, "
              f"{time.monotonic() - start:.1f} s)", flush=True)
    return out_path


def _describe(e):
    """`Type: first line` of an exception, and of its innermost cause (the exporters wrap the
    real error, e.g. ConversionError around a torch._dynamo or decomposition error)."""
    text = f"{type(e).__name__}: {_first_line(e)}"
    inner, seen = e, set()
    while (inner.__cause__ or inner.__context__) is not None and id(inner) not in seen:
        seen.add(id(inner))
        inner = inner.__cause__ or inner.__context__
    if inner is not e:
        text += f" (caused by {type(inner).__name__}: {_first_line(inner)})"
    return text


def _first_line(e):
    for line in re.sub(r"\x1b\[[0-9;]*m", "", str(e)).splitlines():
        line = line.strip()
        if line and not set(line) <= set("=-#*"):
            return line[:300]
    return type(e).__name__


def check_against_torch(spec, path):
    """Max abs difference between PyTorch and onnxruntime on the run inputs."""
    import numpy as np
    import onnxruntime as ort
    import torch

    feeds = make_feeds(spec, seed=1)
    torch.manual_seed(0)
    model = spec.build()
    with torch.no_grad():
        ref = model(*[torch.from_numpy(a) for a in feeds.values()])
    ref = [ref] if isinstance(ref, torch.Tensor) else list(ref)
    sess = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    got = sess.run(None, feeds)
    return max(float(np.abs(g - r.numpy()).max()) for g, r in zip(got, ref))


def float64_outputs(spec, feeds):
    """The PyTorch model of `spec` (same seed, so the same weights as its export) evaluated in
    float64 on `feeds` (float inputs widened): a result with far less rounding error than any
    float32 run, to tell which of two float32 results is the more accurate."""
    import numpy as np
    import torch

    torch.manual_seed(0)
    model = spec.build().double()
    args = [torch.from_numpy(a.astype(np.float64) if a.dtype == np.float32 else a)
            for a in feeds.values()]
    with torch.no_grad():
        out = model(*args)
    out = [out] if isinstance(out, torch.Tensor) else list(out)
    return [o.numpy() for o in out]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--flavour", default="ts17", choices=FLAVOURS + ("all",))
    ap.add_argument("--filter", help="only models whose name matches REGEX (re.search)")
    ap.add_argument("--subset", choices=sorted(SUBSETS))
    ap.add_argument("--cache-dir", default=DEFAULT_CACHE)
    ap.add_argument("--list", action="store_true", help="list the models and exit")
    ap.add_argument("--check", action="store_true",
                    help="compare onnxruntime with PyTorch on each exported model")
    args = ap.parse_args()
    specs = select(args.filter, args.subset)
    if args.list:
        for s in specs:
            print(f"{s.name:34} {s.source:13} {s.family:13} "
                  f"{' '.join(str(i.shape) for i in s.inputs)}")
        print(f"{len(specs)} models")
        return 0
    flavours = FLAVOURS if args.flavour == "all" else (args.flavour,)
    failed = 0
    for flavour in flavours:
        for spec in specs:
            if not has_flavour(spec, flavour):
                continue
            try:
                path = export(spec, flavour, args.cache_dir)
            except ExportError as e:
                print(f"export_suite: {flavour}/{spec.name}: export failed: {e}", flush=True)
                failed += 1
                continue
            if args.check:
                err = check_against_torch(spec, path)
                print(f"export_suite: {flavour}/{spec.name}: onnxruntime vs PyTorch max abs err "
                      f"{err:.3g}", flush=True)
    total = sum(has_flavour(s, f) for f in flavours for s in specs)
    print(f"export_suite: {total - failed} exported or cached, "
          f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
