UPDATE chunks SET embedding = %s, embedding_model = %s WHERE organization_id = %s AND id = %s
