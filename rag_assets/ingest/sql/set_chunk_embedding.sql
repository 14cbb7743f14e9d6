UPDATE chunks SET embedding = %s, embedding_model = %s WHERE id = %s
