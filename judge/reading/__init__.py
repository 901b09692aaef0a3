"""Reading what a program prints: boards, `new game` and matchbox dumps in every form SPEC
section 8 allows, the conversation's lines, and the record of it kept for people."""
