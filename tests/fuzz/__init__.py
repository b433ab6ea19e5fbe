"""The fuzzing campaign: mutated and generated scripts against ``Sandbox.run`` and both of
memtool's tools, checked for hangs, internal errors, tracebacks, host paths and jail escapes.

``python -m tests.fuzz --minutes 30`` runs a long campaign from the repository root; the test
suite runs a bounded one with a fixed seed (``test_fuzz_campaign.py``); every finding becomes a
regression script in ``test_fuzz_findings.py``."""
