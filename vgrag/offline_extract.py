"""Offline triple extraction with spaCy: named entities + dependency patterns, pronouns resolved to the topic.

Patterns per verb: subject–verb–object, subject–verb–preposition–object, passive agents, copulas
("X is the capital of Y"), appositions ("X, a French painter,"), and conjoined subjects/objects.
Noun phrases are widened to the named entity or compound they belong to.
"""

from __future__ import annotations

from collections.abc import Sequence

from .extract import Extraction, clean_triple
from .models import Triple
from .nlp import load_spacy

PRONOUNS = {"he", "she", "it", "they", "him", "her", "them", "his", "its", "their"}
SKIP_LABELS = {"CARDINAL", "ORDINAL", "PERCENT", "QUANTITY", "MONEY"}
SUBJ = {"nsubj", "nsubjpass", "csubj"}
OBJ = {"dobj", "attr", "oprd", "dative"}


class OfflineExtractor:
    """Extracts triples from English prose without any model download or API."""

    name = "offline (spaCy rules)"

    def __init__(self, batch_size: int = 32) -> None:
        self._nlp = load_spacy()
        self._batch = batch_size

    def extract_many(self, texts: Sequence[str], titles: Sequence[str] | None = None) -> list[Extraction]:
        if self._nlp is None:
            return [
                Extraction(error="spaCy model en_core_web_sm not installed: pip install -r requirements.txt")
                for _ in texts
            ]
        titles = list(titles) if titles else [""] * len(texts)
        out = []
        for doc, title in zip(self._nlp.pipe(list(texts), batch_size=self._batch), titles, strict=True):  # type: ignore[attr-defined]
            out.append(self._doc(doc, title))
        return out

    def _doc(self, doc: object, title: str) -> Extraction:
        ent_of = {}
        names: list[str] = []
        for ent in doc.ents:  # type: ignore[attr-defined]
            if ent.label_ in SKIP_LABELS:
                continue
            names.append(ent.text)
            for tok in ent:
                ent_of[tok.i] = ent
        topic = title.strip() or None
        triples: list[Triple] = []
        for sent in doc.sents:  # type: ignore[attr-defined]
            sent_subject = None
            for tok in sent:
                if tok.pos_ not in ("VERB", "AUX"):
                    continue
                subjects = [c for c in tok.children if c.dep_ in SUBJ]
                if not subjects and tok.dep_ in ("conj", "xcomp", "advcl", "relcl"):
                    subjects = [c for c in tok.head.children if c.dep_ in SUBJ]
                    if tok.dep_ == "relcl":
                        subjects = [tok.head]
                for s in subjects:
                    s_text = self._phrase(s, ent_of, topic, sent_subject)
                    if not s_text:
                        continue
                    sent_subject = sent_subject or s_text
                    for s_alt in [s_text] + [self._phrase(c, ent_of, topic, None) for c in s.conjuncts]:
                        triples.extend(self._verb_triples(tok, s, s_alt, ent_of, topic))
            if sent_subject and sent_subject.casefold() not in PRONOUNS:
                topic = topic or sent_subject
            for tok in sent:  # apposition: "X, a French painter,"
                if tok.dep_ == "appos":
                    head = self._phrase(tok.head, ent_of, topic, None)
                    app = self._phrase(tok, ent_of, topic, None)
                    if head and app:
                        triples.append(Triple(head, "is", app))
        cleaned = [t for t in (clean_triple((t.subject, t.predicate, t.object)) for t in triples) if t]
        uniq = tuple(dict.fromkeys(cleaned))
        return Extraction(uniq, tuple(dict.fromkeys(names)), raw="", error=None if uniq else "no triples found")

    def _verb_triples(self, verb: object, s_tok: object, subj: str, ent_of: dict, topic: str | None) -> list[Triple]:
        out: list[Triple] = []
        passive = s_tok.dep_ == "nsubjpass"  # type: ignore[attr-defined]
        particle = " ".join(c.text for c in verb.children if c.dep_ == "prt")  # type: ignore[attr-defined]
        neg = any(c.dep_ == "neg" for c in verb.children)  # type: ignore[attr-defined]
        base = ("not " if neg else "") + verb.text  # type: ignore[attr-defined]
        if passive:
            aux = [c.text for c in verb.children if c.dep_ == "auxpass"]  # type: ignore[attr-defined]
            base = " ".join(aux + [base])
        pred = f"{base} {particle}".strip()
        for c in verb.children:  # type: ignore[attr-defined]
            if c.dep_ in OBJ:
                for o in [c] + list(c.conjuncts):
                    obj = self._phrase(o, ent_of, topic, None)
                    if obj:
                        out.append(Triple(subj, pred, obj))
                    for p in o.children:  # "capital of France" → (X, is capital of, France)
                        if p.dep_ == "prep" and o.i not in ent_of:
                            for po in p.children:
                                if po.dep_ == "pobj":
                                    head = o.lemma_ if o.pos_ == "NOUN" else o.text
                                    out.append(
                                        Triple(
                                            subj,
                                            f"{pred} {head} {p.text}",
                                            self._phrase(po, ent_of, topic, None) or po.text,
                                        )
                                    )
            elif c.dep_ in ("prep", "agent"):
                for po in c.children:
                    if po.dep_ != "pobj":
                        continue
                    for o in [po] + list(po.conjuncts):
                        obj = self._phrase(o, ent_of, topic, None)
                        if not obj:
                            continue
                        if c.dep_ == "agent":
                            out.append(Triple(obj, verb.text, subj))  # type: ignore[attr-defined]
                        else:
                            out.append(Triple(subj, f"{pred} {c.text}", obj))
        return out

    @staticmethod
    def _phrase(tok: object, ent_of: dict, topic: str | None, prev_subject: str | None) -> str:
        """The named entity containing tok, else its compound/modifier phrase; pronouns → the topic."""
        if tok.lower_ in PRONOUNS:  # type: ignore[attr-defined]
            return prev_subject or topic or ""
        if tok.i in ent_of:  # type: ignore[attr-defined]
            ent = ent_of[tok.i]  # type: ignore[attr-defined]
            return (ent[1:] if ent[0].lower_ == "the" and len(ent) > 1 else ent).text
        if tok.pos_ in ("PRON", "DET", "ADP", "SCONJ", "PUNCT"):  # type: ignore[attr-defined]
            return ""
        keep = [
            c
            for c in tok.children
            if c.dep_ in ("compound", "amod", "nummod", "poss", "nmod", "flat")  # type: ignore[attr-defined]
            and c.i < tok.i
        ]  # type: ignore[attr-defined]
        start = min([tok.i] + [c.left_edge.i for c in keep])  # type: ignore[attr-defined]
        span = tok.doc[start : tok.i + 1]  # type: ignore[attr-defined]
        words = [t for t in span if not t.is_punct and t.dep_ != "det"]
        return " ".join(t.text for t in words).replace(" 's", "'s")
