"""Partitions: one per stored file, keyed by its SHA-256."""

from dagster import DynamicPartitionsDefinition

files_partitions = DynamicPartitionsDefinition(name="files")
