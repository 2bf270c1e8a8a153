# build/fcall.sh PARTS NAME: tools/final_run.sh PARTS into /tmp/NAME, its archive into $OUT.
parts=$1; name=$2
tools/final_run.sh "$parts" /tmp/$name
rc=$?
cp /tmp/$name.tar.gz $OUT/ 2>/dev/null
echo "final_run rc=$rc"
