"""A remote-execution worker for tests/bazel.rs: a bot of BuildGrid's Remote Workers API.

BuildGrid schedules the actions Bazel sends it (REAPI Execute) onto bots; its own bot
(buildbox-worker) is on no registry the test machines reach, so this is one, in the
protocol's plain form: open a bot session, take each lease BuildGrid assigns, stage the
action's input tree from the CAS into an empty folder, run its command there, upload the
outputs, and hand the ActionResult back on the lease. Only the declared inputs exist in
that folder, so an action that reads anything else fails here.

    python worker.py grpc://127.0.0.1:PORT WORKDIR
"""

import hashlib
import os
import shutil
import subprocess
import sys
import time

import grpc
from buildgrid._protos.build.bazel.remote.execution.v2 import remote_execution_pb2 as re
from buildgrid._protos.build.bazel.remote.execution.v2 import (
    remote_execution_pb2_grpc as re_grpc,
)
from buildgrid._protos.google.bytestream import bytestream_pb2, bytestream_pb2_grpc
from buildgrid._protos.google.devtools.remoteworkers.v1test2 import (
    bots_pb2,
    bots_pb2_grpc,
)

LEASE_PENDING, LEASE_ACTIVE, LEASE_COMPLETED = 1, 2, 4
BOT_OK = 1


# The answers of the server that the worker waits out rather than dies of.
TRANSIENT = (
    grpc.StatusCode.DEADLINE_EXCEEDED,
    grpc.StatusCode.RESOURCE_EXHAUSTED,
    grpc.StatusCode.UNAVAILABLE,
)


def digest_of(data: bytes) -> re.Digest:
    return re.Digest(hash=hashlib.sha256(data).hexdigest(), size_bytes=len(data))


# Blobs above this go through ByteStream: a batch request has a size limit (4 MiB here).
BATCH_LIMIT = 1 << 20


class Cas:
    def __init__(self, channel: grpc.Channel) -> None:
        self.stub = re_grpc.ContentAddressableStorageStub(channel)
        self.bytestream = bytestream_pb2_grpc.ByteStreamStub(channel)
        # Large blobs (the rulec binary every action runs) are kept once fetched.
        self.large: dict = {}

    def read(self, digests: list) -> dict:
        out = {}
        for d in digests:
            if d.size_bytes > BATCH_LIMIT:
                if d.hash not in self.large:
                    name = f"blobs/{d.hash}/{d.size_bytes}"
                    reads = self.bytestream.Read(
                        bytestream_pb2.ReadRequest(resource_name=name)
                    )
                    self.large[d.hash] = b"".join(r.data for r in reads)
                out[d.hash] = self.large[d.hash]
        wanted = [d for d in digests if 0 < d.size_bytes <= BATCH_LIMIT]
        for i in range(0, len(wanted), 500):
            resp = self.stub.BatchReadBlobs(
                re.BatchReadBlobsRequest(digests=wanted[i : i + 500])
            )
            for r in resp.responses:
                if r.status.code != 0:
                    raise RuntimeError(
                        f"CAS has no {r.digest.hash}: {r.status.message}"
                    )
                out[r.digest.hash] = r.data
        out[digest_of(b"").hash] = b""
        return out

    def write(self, blobs: list) -> None:
        for b in blobs:
            if len(b) > BATCH_LIMIT:
                d = digest_of(b)
                name = f"uploads/{os.getpid()}/blobs/{d.hash}/{d.size_bytes}"
                chunks = (
                    bytestream_pb2.WriteRequest(
                        resource_name=name,
                        write_offset=o,
                        data=b[o : o + BATCH_LIMIT],
                        finish_write=o + BATCH_LIMIT >= len(b),
                    )
                    for o in range(0, len(b), BATCH_LIMIT)
                )
                self.bytestream.Write(chunks)
        reqs = [
            re.BatchUpdateBlobsRequest.Request(digest=digest_of(b), data=b)
            for b in blobs
            if len(b) <= BATCH_LIMIT
        ]
        for i in range(0, len(reqs), 200):
            resp = self.stub.BatchUpdateBlobs(
                re.BatchUpdateBlobsRequest(requests=reqs[i : i + 200])
            )
            for r in resp.responses:
                if r.status.code != 0:
                    raise RuntimeError(
                        f"cannot upload {r.digest.hash}: {r.status.message}"
                    )


def stage(cas: Cas, root_digest: re.Digest, into: str) -> None:
    """Write the input tree under `into`: its files, their executable bits, its folders."""
    pending = [(root_digest, into)]
    while pending:
        digest, path = pending.pop()
        os.makedirs(path, exist_ok=True)
        directory = re.Directory.FromString(cas.read([digest])[digest.hash])
        blobs = cas.read([f.digest for f in directory.files])
        for f in directory.files:
            target = os.path.join(path, f.name)
            with open(target, "wb") as out:
                out.write(blobs[f.digest.hash])
            os.chmod(target, 0o755 if f.is_executable else 0o644)
        for s in directory.symlinks:
            os.symlink(s.target, os.path.join(path, s.name))
        pending.extend(
            (d.digest, os.path.join(path, d.name)) for d in directory.directories
        )


def execute(cas: Cas, action: re.Action, workdir: str) -> re.ActionResult:
    command = re.Command.FromString(
        cas.read([action.command_digest])[action.command_digest.hash]
    )
    root = os.path.join(workdir, action.command_digest.hash[:16])
    shutil.rmtree(root, ignore_errors=True)
    stage(cas, action.input_root_digest, root)
    cwd = os.path.join(root, command.working_directory)
    for out in list(command.output_files) + list(command.output_directories):
        os.makedirs(os.path.dirname(os.path.join(cwd, out)), exist_ok=True)
    env = {v.name: v.value for v in command.environment_variables}
    run = subprocess.run(
        list(command.arguments), cwd=cwd, env=env, capture_output=True, check=False
    )
    result = re.ActionResult(exit_code=run.returncode)
    blobs = [run.stdout, run.stderr]
    result.stdout_digest.CopyFrom(digest_of(run.stdout))
    result.stderr_digest.CopyFrom(digest_of(run.stderr))
    for out in command.output_files:
        path = os.path.join(cwd, out)
        if not os.path.isfile(path):
            continue
        with open(path, "rb") as f:
            data = f.read()
        blobs.append(data)
        result.output_files.add(
            path=out, digest=digest_of(data), is_executable=os.access(path, os.X_OK)
        )
    cas.write(blobs)
    result.execution_metadata.worker = "rulec-test-worker"
    shutil.rmtree(root, ignore_errors=True)
    return result


def main() -> None:
    url, workdir = sys.argv[1], sys.argv[2]
    channel = grpc.insecure_channel(url.removeprefix("grpc://"))
    bots = bots_pb2_grpc.BotsStub(channel)
    cas = Cas(channel)
    session = bots_pb2.BotSession(
        bot_id=f"rulec-test-worker-{os.getpid()}", status=BOT_OK
    )
    session.worker.devices.add(handle="local")
    session = bots.CreateBotSession(
        bots_pb2.CreateBotSessionRequest(parent="", bot_session=session)
    )
    print(f"bot session {session.name}", flush=True)
    while True:
        for lease in session.leases:
            if lease.state == LEASE_PENDING:
                lease.state = LEASE_ACTIVE
            elif lease.state == LEASE_ACTIVE:
                action = re.Action()
                if not lease.payload.Unpack(action):
                    digest = re.Digest()
                    lease.payload.Unpack(digest)
                    action = re.Action.FromString(cas.read([digest])[digest.hash])
                try:
                    result = execute(cas, action, workdir)
                    lease.result.Pack(result)
                    print(f"ran {lease.id}: exit {result.exit_code}", flush=True)
                except (
                    grpc.RpcError,
                    OSError,
                    RuntimeError,
                ) as e:  # the lease fails with the reason; the worker goes on
                    lease.status.code = 13  # INTERNAL
                    lease.status.message = str(e)
                    print(f"failed {lease.id}: {e}", flush=True)
                lease.state = LEASE_COMPLETED
        try:
            session = bots.UpdateBotSession(
                bots_pb2.UpdateBotSessionRequest(
                    name=session.name, bot_session=session
                ),
                timeout=30,
            )
        except grpc.RpcError as e:
            # A long poll that timed out, or a server that is busy for a moment (BuildGrid
            # refuses past its limit of concurrent calls): the session, finished leases and
            # all, is sent again.
            if e.code() not in TRANSIENT:
                raise
            print(f"update: {e.code().name}, again", flush=True)
            time.sleep(0.1 if e.code() == grpc.StatusCode.DEADLINE_EXCEEDED else 1.0)


if __name__ == "__main__":
    main()
