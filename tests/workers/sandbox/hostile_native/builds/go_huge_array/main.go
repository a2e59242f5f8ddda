package main

var huge = [1 << 28]int64{1<<28 - 1: 1}

func main() { println(huge[len(huge)-1]) }
