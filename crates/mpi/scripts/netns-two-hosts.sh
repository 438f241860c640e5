#!/bin/sh
# Two "hosts" on one machine: network namespaces cbns1 and cbns2 joined by
# a veth pair (10.77.0.1 <-> 10.77.0.2); OpenMPI talks TCP between them and
# starts the remote rank through an rsh agent that enters cbns2 instead of
# using SSH. Needs root and iproute2.
#
#   scripts/netns-two-hosts.sh up
#   scripts/netns-two-hosts.sh run target/release/examples/mpi_elgamal --lengths 16384 --mode serial,mpi
#   scripts/netns-two-hosts.sh down
set -eu
agent=/tmp/cryptobench-netns-agent.sh
hosts=/tmp/cryptobench-netns-hosts
case "${1:-}" in
up)
    ip netns add cbns1
    ip netns add cbns2
    ip link add cbv1 type veth peer name cbv2
    ip link set cbv1 netns cbns1
    ip link set cbv2 netns cbns2
    ip -n cbns1 addr add 10.77.0.1/24 dev cbv1
    ip -n cbns2 addr add 10.77.0.2/24 dev cbv2
    for ns in cbns1 cbns2; do ip -n "$ns" link set lo up; done
    ip -n cbns1 link set cbv1 up
    ip -n cbns2 link set cbv2 up
    cat > "$agent" <<'AGENT'
#!/bin/sh
# OpenMPI rsh agent: "host" 10.77.0.2 is namespace cbns2, anything else cbns1.
host="$1"; shift
case "$host" in 10.77.0.2) ns=cbns2 ;; *) ns=cbns1 ;; esac
exec ip netns exec "$ns" /bin/sh -c "$*"
AGENT
    chmod +x "$agent"
    printf '10.77.0.1 slots=1\n10.77.0.2 slots=1\n' > "$hosts"
    ;;
run)
    shift
    exec ip netns exec cbns1 mpirun --allow-run-as-root --hostfile "$hosts" -n 2 \
        --bind-to none --mca plm_rsh_agent "$agent" \
        --mca btl tcp,self --mca btl_tcp_if_include 10.77.0.0/24 \
        --mca oob_tcp_if_include 10.77.0.0/24 "$@"
    ;;
down)
    ip netns del cbns1 2>/dev/null || true
    ip netns del cbns2 2>/dev/null || true
    rm -f "$agent" "$hosts"
    ;;
*)
    echo "usage: $0 up | run PROGRAM [ARGS...] | down" >&2
    exit 2
    ;;
esac
