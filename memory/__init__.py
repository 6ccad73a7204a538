"""The verified-citation memory: records that a slower stage verified, kept across runs in chromadb and
found again by vector similarity, so a second paper citing the same work is verified without going online.

    store         open, add, search (`MemoryStore`)
    embedding     the offline MiniLM embedding function chromadb calls
    maintenance   what the memory holds, and forgetting what should not be relied on (`refhound memory`)
"""
