"""Evaluation, apart from the library's core: Recall@k and answer scores on HippoRAG-format data (bench), the
benchmark graph (graph), the verdict rates of answerable and made-unanswerable questions (verdict), and the funnel of
where gold passages were lost over a question set (funnel)."""
