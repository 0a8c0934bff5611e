module rulec/memberdiscount

go 1.18
