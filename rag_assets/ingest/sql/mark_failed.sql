UPDATE documents SET status = 'failed', error = %s WHERE id = %s AND status <> 'live'
