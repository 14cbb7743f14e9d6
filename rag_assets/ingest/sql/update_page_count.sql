UPDATE documents SET page_count = %s WHERE id = %s
