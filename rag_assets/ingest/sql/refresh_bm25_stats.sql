SELECT refresh_bm25_stats(%s, %s)
