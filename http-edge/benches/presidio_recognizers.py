"""Times Microsoft Presidio's pattern recognizers on a file: the reference for the anonymizer
benchmark. Prints one line: `<seconds> <results>`. Needs presidio-analyzer (no NLP model)."""

import sys
import time

from presidio_analyzer.predefined_recognizers import EmailRecognizer, IpRecognizer, UrlRecognizer

text = open(sys.argv[1], encoding="utf-8").read()
recognizers = [IpRecognizer(), EmailRecognizer(), UrlRecognizer()]
started = time.perf_counter()
results = sum(len(r.analyze(text, r.supported_entities, None)) for r in recognizers)
print(f"{time.perf_counter() - started:.6f} {results}")
