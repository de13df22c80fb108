"""The stores: Milvus connection, the graph's three collections and the indexes kept in step with them."""
