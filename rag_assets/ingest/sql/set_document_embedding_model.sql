UPDATE documents SET embedding_model = %s WHERE id = %s
