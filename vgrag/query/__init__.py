"""The query pipeline steps: seeds, hops, eviction, rerank, passages, answer; the trace they build."""
