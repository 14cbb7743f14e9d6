"""docker-compose.yml and the Dockerfile agree with each other and with the settings models: every service probed on the
port it listens on, the serving replicas published, the image unprivileged, every RAG_* variable a setting that
validates. No Docker engine runs here, so the files are read as Compose and Docker would read them."""

import json
import re
import shlex
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

from rag_assets.settings import Settings as AssetSettings
from rag_assets.settings import load_settings as load_asset_settings
from rag_serving.settings import env_names
from rag_serving.settings import load_settings as load_serving_settings

ROOT = Path(__file__).resolve().parents[1]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))
SERVICES = COMPOSE["services"]
# Services run from the project's image (the others are third-party images).
APP = sorted(name for name, service in SERVICES.items() if "build" in service)
CADDYFILE = (ROOT / "deploy" / "Caddyfile").read_text(encoding="utf-8")


def dockerfile() -> list[tuple[str, str]]:
    """(instruction, arguments) in order, as Docker reads them: comments dropped, continued lines joined."""
    instructions, pending = [], ""
    for line in (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        pending += line.strip()
        if pending.endswith("\\"):
            pending = pending[:-1] + " "
            continue
        word, _, rest = pending.partition(" ")
        instructions.append((word.upper(), rest.strip()))
        pending = ""
    return instructions


def image(instruction: str) -> list[str]:
    return [rest for word, rest in dockerfile() if word == instruction]


def image_env() -> dict[str, str]:
    env = {}
    for rest in image("ENV"):
        for pair in shlex.split(rest):
            name, _, value = pair.partition("=")
            env[name] = value
    return env


def image_healthcheck() -> dict:
    """The Dockerfile's HEALTHCHECK as Compose sees an image's: options, and the shell form as CMD-SHELL."""
    (rest,) = image("HEALTHCHECK")
    options, _, command = rest.partition(" CMD ")
    check = dict(re.findall(r"--([\w-]+)=(\S+)", options))
    return {**check, "test": ["CMD-SHELL", command.strip()]}


def run_commands() -> list[list[str]]:
    """Every command of every RUN, split into words."""
    return [shlex.split(part) for rest in image("RUN") for part in rest.split("&&")]


def environment(name: str) -> dict[str, str]:
    """What a service's processes see: the image's ENV, then the service's environment over it."""
    own = {key: str(value) for key, value in SERVICES[name].get("environment", {}).items()}
    return {**image_env(), **own} if name in APP else own


def healthcheck(name: str) -> dict:
    """The check Compose runs for a service: its own, over the image's for services built here."""
    own = SERVICES[name].get("healthcheck", {})
    return {**image_healthcheck(), **own} if name in APP else own


def expand(text: str, env: dict[str, str]) -> str:
    """The shell's ${VAR} and ${VAR:-default}, as CMD-SHELL expands them in the container."""
    return re.sub(r"\$\{(\w+)(?::-([^}]*))?\}", lambda m: env.get(m[1]) or m[2] or "", text)


def url_in(command: str):
    (url,) = re.findall(r"https?://[^\s\"']+", command)
    return urlsplit(url)


def probe_url(name: str):
    """The one URL a service's healthcheck requests, with the service's environment expanded."""
    return url_in(expand(" ".join(healthcheck(name)["test"][1:]), environment(name)))


def option(command: list[str], flag: str) -> str:
    return command[command.index(flag) + 1]


def settings(name: str):
    """The settings the service's process loads: the serving model for the API, the ingest/Dagster one otherwise."""
    serving = SERVICES[name]["command"][:3] == ["python", "-m", "rag_serving"]
    return (load_serving_settings if serving else load_asset_settings)(environment(name))


def test_every_service_has_a_healthcheck():
    for name, service in SERVICES.items():
        check = healthcheck(name)
        if check.get("disable"):
            # Only one-off containers may go without, as nothing listens in them: CLI runs (a profile `up` does not
            # start) and the migration that runs once and exits.
            assert service.get("profiles") == ["cli"] or service.get("restart") == "no", name
            continue
        assert check.get("test", ["NONE"])[0] in ("CMD", "CMD-SHELL"), name


def test_serving_listens_on_every_address_at_the_port_it_exposes():
    serving = settings("serving")
    assert serving.api_host == "0.0.0.0"
    assert SERVICES["serving"]["expose"] == [str(serving.api_port)]
    # No --host/--port on the command line: the settings are what it binds.
    assert not {"--host", "--port"} & set(SERVICES["serving"]["command"])


def test_the_serving_replicas_are_published_on_one_host_port():
    assert SERVICES["serving"]["deploy"]["replicas"] >= 2 and "ports" not in SERVICES["serving"]
    (published,) = SERVICES["api"]["ports"]
    host_ip, host_port, target = published.split(":")
    assert host_ip == "127.0.0.1" and host_port.isdigit()
    (site_port,) = re.findall(r"^:(\d+) \{", CADDYFILE, re.M)
    (upstream,) = re.findall(r"dynamic a (\S+) (\d+)", CADDYFILE)
    assert target == site_port
    assert upstream == ("serving", str(settings("serving").api_port))
    assert "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro" in SERVICES["api"]["volumes"]


def test_the_serving_and_api_probes_ask_healthz_on_the_ports_they_listen_on():
    url = probe_url("serving")
    assert (url.hostname, url.port, url.path) == ("127.0.0.1", settings("serving").api_port, "/healthz")
    url, target = probe_url("api"), int(SERVICES["api"]["ports"][0].split(":")[-1])
    assert (url.hostname, url.port, url.path) == ("127.0.0.1", target, "/healthz")


def test_the_dagster_probes_ask_the_webserver_and_the_daemons_heartbeats():
    url = probe_url("dagster-webserver")
    port = int(option(SERVICES["dagster-webserver"]["command"], "-p"))
    assert (url.hostname, url.port, url.path) == ("127.0.0.1", port, "/server_info")
    assert "dagster-daemon liveness-check" in healthcheck("dagster-daemon")["test"][1]


def test_the_tei_probes_ask_health_on_the_port_each_server_listens_on():
    tei = [name for name, service in SERVICES.items() if "text-embeddings-inference" in service.get("image", "")]
    assert tei
    for name in tei:
        script = healthcheck(name)["test"][-1]
        assert re.findall(r"/dev/tcp/127\.0\.0\.1/(\d+)", script) == [option(SERVICES[name]["command"], "--port")]
        assert re.findall(r"GET (\S+) HTTP", script) == ["/health"]


def test_the_urls_in_the_settings_name_services_of_this_file_on_their_ports():
    for name in APP:
        for value in settings(name).model_dump().values():
            if isinstance(value, str) and "://" in value:
                url = urlsplit(value)
                assert url.hostname in SERVICES, f"{name}: {value}"
                command = SERVICES[url.hostname].get("command", [])
                if "--port" in command:
                    assert url.port == int(option(command, "--port")), f"{name}: {value}"


def test_every_rag_variable_is_a_setting():
    known = set(env_names(AssetSettings).values())  # the serving model's variables and the ingest/Dagster ones
    given = set(image_env()) | {key for name in APP for key in environment(name)}
    assert {key for key in given if key.startswith("RAG_")} - known == set()


@pytest.mark.parametrize("name", APP)
def test_each_services_environment_validates_through_its_settings_model(name):
    settings(name)  # a bad value raises SettingsError naming the variable, the value and what is allowed


def test_the_image_runs_as_an_unprivileged_user():
    *_, user = image("USER")
    uid = user.split(":")[0]
    assert uid not in ("root", "0")
    (useradd,) = [words for words in run_commands() if words[0] == "useradd"]
    assert option(useradd, "--uid") == uid


def test_the_image_user_owns_every_folder_its_processes_write():
    env = image_env()
    loaded = load_asset_settings(env)
    written = {Path(env["DAGSTER_HOME"]), loaded.home, loaded.dagster_artifacts}
    (useradd,) = [words for words in run_commands() if words[0] == "useradd"]
    created = [words for words in run_commands() if words[:2] == ["install", "-d"]]
    owned = {Path(p) for words in created if option(words, "-o") == useradd[-1] for p in words[2:] if p.startswith("/")}
    assert written <= owned


def test_the_image_exposes_and_probes_the_port_serving_binds():
    port = load_serving_settings(image_env()).api_port
    assert image("EXPOSE") == [str(port)]
    url = url_in(expand(image_healthcheck()["test"][1], image_env()))
    assert (url.hostname, url.port, url.path) == ("127.0.0.1", port, "/healthz")
    (command,) = image("CMD")
    assert json.loads(command) == ["python", "-m", "rag_serving", "serve"]


def test_the_dagster_processes_read_the_repositorys_dagster_yaml():
    # One run queue for `rag ui` on one machine and for the compose services: the file is copied where Dagster
    # looks for it, and no service points DAGSTER_HOME elsewhere or mounts another file over it.
    home = image_env()["DAGSTER_HOME"]
    assert f"dagster.yaml {home}/dagster.yaml" in image("COPY")
    for name in APP:
        assert environment(name)["DAGSTER_HOME"] == home
        assert not any(str(v).split(":")[1].startswith(home) for v in SERVICES[name].get("volumes", [])), name


def test_every_process_reading_the_tables_waits_for_the_migration_to_succeed():
    assert SERVICES["migrate"]["command"] == ["rag", "db", "migrate"] and SERVICES["migrate"]["restart"] == "no"
    readers = [name for name in APP if name not in ("migrate", "worker")]
    assert readers
    for name in readers:
        assert SERVICES[name]["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}, name


def test_the_image_carries_the_golden_set_where_the_evaluation_assets_look():
    from rag_assets.assets.evaluation import GoldenEvalConfig
    from rag_assets.evaluation.provenance import REPO_ROOT

    # The nightly benchmark reads golden/ beside the package (REPO_ROOT); installed in place, /app is that root.
    assert Path(GoldenEvalConfig().golden) == REPO_ROOT / "golden"
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    copies = [line.split()[1:] for line in dockerfile.splitlines() if line.startswith("COPY ")]
    assert ["golden", "golden"] in copies and ["rag_assets", "rag_assets"] in copies
    installs = [line for line in dockerfile.splitlines() if "pip install" in line and "constraints.txt" in line]
    assert installs and all(" -e ." in line for line in installs)
