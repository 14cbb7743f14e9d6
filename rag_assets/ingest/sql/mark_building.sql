UPDATE documents SET status = 'building', error = NULL WHERE id = %s AND status = 'failed'
