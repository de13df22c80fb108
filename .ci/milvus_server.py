"""Start a real Milvus standalone server (PyPI `milvus`, the server binary with its own etcd and local storage) and
keep it until stdin closes. Run by tests/test_server.py with the Python of a separate venv holding `milvus==2.3.5`
(not a project requirement: .ci/run installs it), inside a loopback-only network namespace (the server listens on
every interface). Prints "ready PORT" once healthy."""

import sys

from milvus import MilvusServer

server = MilvusServer(wait_for_started=True)
server.set_base_dir(sys.argv[1])
server.start()
sys.stdout.write(f"ready {server.listen_port}\n")
sys.stdout.flush()
sys.stdin.read()  # the test closes it (or kills this process group) when done
server.stop()
