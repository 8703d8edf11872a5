"""Memory instruction families: the vectorised gathers, scatters and atomics they share
(``memops``), global/flat/scratch (``vmem``), MUBUF through V# resources (``buffer``) and
where such an access goes and whether it is in range (``buffer_address``), LDS,
permutes and swizzles (``ds``), gfx950's transposing LDS reads (``dstr``), and global/buffer ->
LDS DMA (``ldsdma``).
"""
